package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.ProviderView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the provider view from inside (issue 25): a task's command, or a program the provider starts, trying to
 * change what a later task's provider acts on. Real bubblewrap. (The operator's login file, bound read-write into
 * every view, is a channel between workdirs still: docs/AGENTS.md "Known limits of the view".)
 */
class ProviderSandboxAttackIT {
    private static final String PATH = System.getenv("PATH");

    @TempDir
    Path dir;

    private Path home;
    private Path config;

    @BeforeEach
    void plant() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        config = Files.createDirectories(home.resolve(".provider"));
        Files.writeString(config.resolve("auth.json"), "provider-login");
        Files.writeString(config.resolve("settings.json"), "{\"operator\":true}");
        Files.writeString(config.resolve("history.jsonl"), "operator-history");
    }

    private ProviderSandbox sandbox() {
        ProviderSandbox sandbox = ProviderSandbox.confined("bwrap", PATH, List.of(), List.of(), dir.resolve("homes"));
        assertEquals(Optional.empty(), sandbox.unavailableReason(), "these tests need bubblewrap and user namespaces");
        return sandbox;
    }

    /** As the Codex and Claude adapters ask: the configuration directory, its login and its settings. */
    private ProviderSandbox.Grants grants() {
        return new ProviderSandbox.Grants(
                List.of(config),
                Map.of(),
                Optional.of(new ProviderLogin(config.resolve("auth.json"), TestLogin.FORMAT, Instant.now())),
                Map.of(config.resolve("settings.json"), "{}"),
                List.of(),
                Optional.empty(),
                List.of(),
                List.of());
    }

    /** Runs {@code script} in the view of the workdir {@code root} (read-write or not); its stdout and stderr. */
    private String run(Path root, boolean writable, String script) throws Exception {
        ProviderView view = new ProviderView(root, root, writable, List.of());
        return ProviderSandboxIT.start(sandbox()
                .wrap(
                        new ProviderCommand(
                                List.of("/bin/sh", "-c", script),
                                root,
                                Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                                1024),
                        view,
                        grants()));
    }

    /**
     * A workdir that holds the serving user's home (WORKDIR_01_PATH=$HOME) is bound over the private home, and so far
     * over the provider's configuration too: the operator's own directory showed through, its settings writable. A
     * task could plant a setting every later task of every workdir acts on (Codex's {@code notify}, Claude's {@code
     * apiKeyHelper}), and read the operator's own transcripts.
     */
    @Test
    void a_workdir_holding_the_home_still_shows_the_workdirs_own_configuration_with_read_only_settings()
            throws Exception {
        String out = run(
                home,
                true,
                "cat $HOME/.provider/history.jsonl; echo; echo planted > $HOME/.provider/settings.json;"
                        + " cat $HOME/.provider/settings.json; echo; cat $HOME/.provider/auth.json");
        assertEquals("{\"operator\":true}", Files.readString(config.resolve("settings.json")), out);
        assertFalse(out.contains("operator-history"), "the operator's own directory is not shown: " + out);
        assertTrue(out.contains("provider-login"), "the login is: " + out);
    }
}
