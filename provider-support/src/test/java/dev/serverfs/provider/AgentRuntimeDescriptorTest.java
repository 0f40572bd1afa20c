package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.provider.AgentRuntimeDescriptor.Setting;
import dev.serverfs.provider.AgentRuntimeDescriptor.Values;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentRuntimeDescriptorTest {

    private static AgentRuntimeDescriptor descriptor(List<Setting> settings) {
        return new AgentRuntimeDescriptor(RuntimeName.of("scratch"), false, settings, (values, host) -> {
            throw new UnsupportedOperationException();
        });
    }

    @Test
    void a_setting_is_declared_once_and_an_alias_follows_its_setting() {
        Setting bin = Setting.program("SERVERFS_AGENT_SCRATCH_BIN", "scratch", "d");
        Setting alias = Setting.programAlias("SERVERFS_SCRATCH_BIN", "SERVERFS_AGENT_SCRATCH_BIN", "d");
        assertEquals(2, descriptor(List.of(bin, alias)).settings().size());
        assertThrows(IllegalArgumentException.class, () -> descriptor(List.of(bin, bin)));
        assertThrows(IllegalArgumentException.class, () -> descriptor(List.of(alias, bin)));
        Setting aliasOfAlias = Setting.programAlias("SERVERFS_SCRATCH_CLI", "SERVERFS_SCRATCH_BIN", "d");
        assertThrows(IllegalArgumentException.class, () -> descriptor(List.of(bin, alias, aliasOfAlias)));
        assertThrows(IllegalArgumentException.class, () -> Setting.program("SCRATCH_BIN", "scratch", "d"));
    }

    @Test
    void values_are_read_by_kind_and_never_shown() {
        Values values = new Values(Map.of(
                "SERVERFS_AGENT_SCRATCH_BIN",
                "/opt/scratch",
                "SERVERFS_SCRATCH_TIMEOUT_SECONDS",
                3,
                "SERVERFS_SCRATCH_HOME",
                Optional.of(Path.of("/home/me"))));
        assertEquals("/opt/scratch", values.program("SERVERFS_AGENT_SCRATCH_BIN"));
        assertEquals(3, values.positiveInt("SERVERFS_SCRATCH_TIMEOUT_SECONDS"));
        assertEquals(Optional.of(Path.of("/home/me")), values.absolutePath("SERVERFS_SCRATCH_HOME"));
        assertThrows(IllegalArgumentException.class, () -> values.program("SERVERFS_OTHER"));
        assertEquals(
                "Values[SERVERFS_AGENT_SCRATCH_BIN, SERVERFS_SCRATCH_HOME, SERVERFS_SCRATCH_TIMEOUT_SECONDS]",
                values.toString());
    }
}
