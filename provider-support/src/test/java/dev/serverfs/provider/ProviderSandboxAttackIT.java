package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.ProviderView;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Attacks on the provider view from inside (issue 25): a task's command, or a program the provider starts, trying to
 * change what a later task's provider acts on, or to pass data to a task of another workdir. Real bubblewrap.
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
                List.of(config.resolve("auth.json")),
                Map.of(config.resolve("settings.json"), "{}"),
                List.of(),
                Optional.empty(),
                List.of());
    }

    /** Runs {@code script} in the view of the workdir {@code root} (read-write or not); its stdout and stderr. */
    private String run(Path root, boolean writable, String script) throws Exception {
        ProviderView view = new ProviderView(root, root, writable, List.of());
        ProviderCommand command = sandbox()
                .wrap(
                        new ProviderCommand(
                                List.of("/bin/sh", "-c", script),
                                root,
                                Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                                1024),
                        view,
                        grants());
        ProcessBuilder builder = new ProcessBuilder(command.argv())
                .directory(command.workingDirectory().toFile())
                .redirectErrorStream(true);
        builder.environment().clear();
        builder.environment().putAll(command.environment());
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out;
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

    /**
     * The operator's login file is bound read-write into every view, of every workdir and profile: whatever a task of
     * one workdir writes there a task of another reads (and the operator's own CLI on the host then uses). A real
     * channel between workdirs, and a persistent write outside the view (a task can swap in another account's
     * tokens). Closing it needs the token refresh to move out of the child (see the report): not a contained change.
     */
    @Test
    @Disabled("design hole: the shared read-write login file is a channel between workdirs; needs a token broker")
    void a_task_of_one_workdir_cannot_pass_data_to_a_task_of_another_through_the_login() throws Exception {
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        run(a, false, "printf 'message-from-a' > $HOME/.provider/auth.json");
        String read = run(b, true, "cat $HOME/.provider/auth.json");
        assertFalse(read.contains("message-from-a"), "a review task of workdir a wrote, workdir b read: " + read);
        assertEquals("provider-login", Files.readString(config.resolve("auth.json")), "the operator's own login");
    }
}
