package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CodexDescriptorTest {

    @Test
    void the_descriptor_builds_codex_from_its_resolved_settings_and_the_hosts_environment() {
        Map<String, String> environment = Map.of("PATH", "/usr/bin", "CODEX_HOME", "/srv/codex");
        AgentRuntimeDescriptor.Values values = new AgentRuntimeDescriptor.Values(Map.of(
                "SERVERFS_AGENT_CODEX_BIN",
                "/opt/codex/bin/codex",
                "SERVERFS_CODEX_HOME",
                Optional.of(Path.of("/home/me/.codex")),
                "SERVERFS_CODEX_REQUEST_TIMEOUT_SECONDS",
                3));
        CodexAgentRuntime runtime = (CodexAgentRuntime) CodexAgentRuntime.DESCRIPTOR
                .factory()
                .create(values, new AgentRuntimeDescriptor.Host(environment, ProviderSandbox.unconfined(), List.of()));

        assertEquals(CodexAgentRuntime.NAME, runtime.name());
        assertEquals(
                new CodexSettings(
                        "/opt/codex/bin/codex",
                        Optional.of(Path.of("/home/me/.codex")),
                        Duration.ofSeconds(3),
                        environment),
                runtime.settings());
    }
}
