package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a workdir's own copy of a provider's configuration lies, and that an unconfined child has none. */
class ProviderSandboxConfigurationTest {
    @TempDir
    Path dir;

    @Test
    void a_confined_child_has_the_workdirs_own_copy_in_the_homes_directory() {
        ProviderSandbox sandbox =
                ProviderSandbox.confined("bwrap", System.getenv("PATH"), List.of(), List.of(), dir.resolve("homes"));
        Path own = sandbox.ownConfigurationOf(dir.resolve("w"), Path.of("/home/op/.codex"))
                .orElseThrow();
        assertTrue(own.startsWith(dir.resolve("homes")), "in the homes directory");
        assertEquals(".codex", own.getFileName().toString());
        assertEquals(own, sandbox.configurationOf(dir.resolve("w"), Path.of("/home/op/.codex")));
    }

    @Test
    void an_unconfined_child_uses_the_operators_own_directory_which_is_no_workdirs_copy() {
        ProviderSandbox sandbox = ProviderSandbox.unconfined();
        Path operators = Path.of("/home/op/.codex");
        assertEquals(Optional.empty(), sandbox.ownConfigurationOf(dir.resolve("w"), operators));
        assertEquals(operators, sandbox.configurationOf(dir.resolve("w"), operators));
    }
}
