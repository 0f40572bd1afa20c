package dev.serverfs.bootstrap.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.adapters.fs.LinuxWorkdirFileSystem;
import dev.serverfs.application.port.out.HeldDirectory;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.WorkdirPath;
import dev.serverfs.provider.ProviderCommand;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The view {@link EmbeddedAgent#sandbox} builds from a real configuration, run by the real bubblewrap: the {@code
 * --env-file} (it holds {@code SERVERFS_AUTH_TOKEN}) is concealed wherever a child would otherwise see it, such as
 * {@code /etc/serverfs/serverfs.env}, where DEPLOYMENT.md puts it ({@code /etc} is shown to every child).
 */
class EmbeddedAgentSandboxIT {
    private static final String TOKEN = "token-" + UUID.randomUUID();

    @TempDir
    Path dir;

    private Path work;

    /** The configuration read from {@code envFile}, with the workdir {@code work} and the Agent embedded. */
    private ServerFsConfig config(Path envFile, Path readOnly, String... more) throws Exception {
        work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("notes.txt"), "ordinary notes\n");
        Files.writeString(
                envFile,
                String.join(
                        "\n",
                        "SERVERFS_AUTH_TOKEN=" + TOKEN,
                        "WORKDIR_01_ALIAS=work",
                        "WORKDIR_01_PATH=" + work,
                        "WORKDIR_01_READ_ONLY=false",
                        "WORKDIR_01_AGENT_MODE=workspace-write",
                        "WORKDIR_01_AGENT_RUNTIMES=codex",
                        "SERVERFS_AGENT_BRIDGE_ENABLED=true",
                        "SERVERFS_AGENT_EMBEDDED=true",
                        "SERVERFS_AGENT_BRIDGE_STATE_DIR=" + dir.resolve("state"),
                        "SERVERFS_AGENT_LOCK_DIR=" + dir.resolve("locks"),
                        "SERVERFS_AGENT_SANDBOX_READ_ONLY_PATHS=" + readOnly,
                        String.join("\n", more),
                        ""));
        return ConfigLoader.load(Map.of("PATH", System.getenv("PATH")), Optional.of(envFile));
    }

    /**
     * The configuration of {@link #config} with two of ServerFS' own paths inside the workdir: another workdir at
     * {@code a/b} (holding {@code inner-secret}) and the env file at {@code cfg/serverfs.conf}.
     */
    private ServerFsConfig nestedWorkdirAndEnvFile() throws Exception {
        Path inner = Files.createDirectories(dir.resolve("work/a/b"));
        Files.writeString(inner.resolve("inner.txt"), "inner-secret");
        Path envFile = Files.createDirectories(dir.resolve("work/cfg")).resolve("serverfs.conf");
        return config(
                envFile,
                dir.resolve("none"),
                "WORKDIR_02_ALIAS=inner",
                "WORKDIR_02_PATH=" + inner,
                "WORKDIR_02_READ_ONLY=true");
    }

    /** {@code script} run by {@code /bin/sh} in the workdir's view; its output. */
    private String run(ServerFsConfig config, String script) throws Exception {
        return start(wrap(config, script, work, work));
    }

    /** {@code script} wrapped for the view of the workdir held as {@code root}, started in {@code cwd}. */
    private ProviderCommand wrap(ServerFsConfig config, String script, Path root, Path cwd) {
        return wrap(config, script, root, cwd, List.of());
    }

    /** The same, with {@code concealed} (what the submit's walk found) hidden. */
    private ProviderCommand wrap(
            ServerFsConfig config, String script, Path root, Path cwd, List<ProviderView.Concealed> concealed) {
        ProviderSandbox sandbox = EmbeddedAgent.sandbox(config);
        assertEquals(Optional.empty(), sandbox.unavailableReason(), "these tests need bubblewrap and user namespaces");
        return sandbox.wrap(
                new ProviderCommand(
                        List.of("/bin/sh", "-c", script),
                        cwd,
                        Map.of("HOME", dir.resolve("home").toString(), "PATH", "/usr/bin:/bin"),
                        1024),
                new ProviderView(work, root, true, concealed),
                ProviderSandbox.Grants.none(List.of(), Optional.empty()));
    }

    private static String start(ProviderCommand command) throws Exception {
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

    @Test
    void the_env_file_in_a_directory_every_child_sees_is_concealed() throws Exception {
        // a stand-in for /etc/serverfs: a directory the view shows read-only, with the jar's configuration in it
        Path etc = Files.createDirectories(dir.resolve("etc-serverfs"));
        Files.writeString(etc.resolve("logging.conf"), "shown\n");
        Path envFile = etc.resolve("serverfs.env");
        String out = run(
                config(envFile, etc), "cat " + envFile + "; cat " + etc.resolve("logging.conf") + "; cat notes.txt");
        assertTrue(out.contains("shown") && out.contains("ordinary notes"), "the rest is shown: " + out);
        assertFalse(out.contains(TOKEN), "the env file is concealed: " + out);
    }

    @Test
    void the_env_file_in_the_workdir_under_an_innocent_name_is_concealed() throws Exception {
        Files.createDirectories(dir.resolve("work"));
        Path envFile = dir.resolve("work").resolve("serverfs.conf");
        String out = run(config(envFile, dir.resolve("none")), "cat serverfs.conf; cat notes.txt");
        assertTrue(out.contains("ordinary notes"), out);
        assertFalse(out.contains(TOKEN), "the env file is concealed: " + out);
    }

    /**
     * A workdir nested in a read-write one, held by a submit, then swapped for a symlink to a directory with a secret
     * (by a task of the outer workdir, say) before bubblewrap mounts it: the child never sees the link's target.
     */
    @Test
    void a_workdir_swapped_for_a_symlink_after_the_submit_held_it_is_never_shown() throws Exception {
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(secrets.resolve("secret.txt"), "planted-secret");
        ServerFsConfig config = config(dir.resolve("serverfs.env"), dir.resolve("none"));
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem();
                HeldDirectory held = fs.hold(config.workdirs().all().getFirst(), WorkdirPath.ROOT)) {
            String script = "cat notes.txt; cat secret.txt; cat ../secrets/secret.txt";
            ProviderCommand early = wrap(config, script, held.root(), held.path());
            Files.move(work, dir.resolve("moved"));
            Files.createSymbolicLink(work, secrets);
            String out = start(early);
            assertFalse(out.contains("planted-secret"), "swapped after the view was built: " + out);

            Files.delete(work);
            Files.createSymbolicLink(work, dir);
            out = start(wrap(config, script, held.root(), held.path()));
            assertFalse(out.contains("planted-secret"), "swapped for a link above it before: " + out);
            assertTrue(out.contains("ordinary notes"), "the held workdir is shown: " + out);

            // a later submit never holds the link
            ServerFsException e = assertThrows(
                    ServerFsException.class,
                    () -> fs.hold(config.workdirs().all().getFirst(), WorkdirPath.ROOT));
            assertEquals(ErrorCode.SYMLINK_NOT_ALLOWED, e.code());
        }
    }

    /**
     * What a task of a read-write workdir does to ServerFS' paths nested in it, by renaming a directory above them (a
     * task cannot rename a path concealed in its view, only its parents): the next task's view still conceals them,
     * found where they now are by their identity, not by their configured names. Here a second workdir and the
     * {@code --env-file}.
     */
    @Test
    void server_paths_nested_in_the_workdir_stay_concealed_after_a_task_moved_their_parents() throws Exception {
        ServerFsConfig config = nestedWorkdirAndEnvFile();
        try (LinuxWorkdirFileSystem fs = EmbeddedAgent.workingDirectories(config.agent(), config.workdirs());
                HeldDirectory held = fs.hold(config.workdirs().all().getFirst(), WorkdirPath.ROOT)) {
            List<ProviderView.Concealed> concealed =
                    fs.deniedEntries(config.workdirs().all().getFirst(), 4096);
            String out = start(wrap(
                    config,
                    "cat a/b/inner.txt cfg/serverfs.conf; mv a a2 && mv cfg cfg2 && echo moved",
                    held.root(),
                    held.path(),
                    concealed));
            assertTrue(out.contains("moved"), "the parents are the task's to rename: " + out);
            assertFalse(out.contains("inner-secret") || out.contains(TOKEN), "concealed by name: " + out);

            concealed = fs.deniedEntries(config.workdirs().all().getFirst(), 4096);
            out = start(wrap(
                    config, "cat a2/b/inner.txt cfg2/serverfs.conf notes.txt", held.root(), held.path(), concealed));
            assertTrue(out.contains("ordinary notes"), "the rest is shown: " + out);
            assertFalse(out.contains("inner-secret"), "the other workdir is concealed where it now is: " + out);
            assertFalse(out.contains(TOKEN), "the env file is concealed where it now is: " + out);
        }
    }

    /**
     * The ingress sidecar on this host is one of ServerFS' own listeners: a task reaches it through the egress relay
     * no more than it reaches /mcp, even when an operator's allow-list entry names its address.
     */
    @Test
    void the_ingress_sidecar_is_not_reached_through_the_relay_even_when_listed() throws Exception {
        com.sun.net.httpserver.HttpServer sidecar = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
        sidecar.createContext("/", exchange -> {
            byte[] body = "sidecar-reached".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        sidecar.start();
        try {
            int port = sidecar.getAddress().getPort();
            ServerFsConfig config = config(
                    dir.resolve("serverfs.env"),
                    dir.resolve("none"),
                    "SERVERFS_FILE_INGRESS_ENABLED=true",
                    "SERVERFS_FILE_INGRESS_URL=http://127.0.0.1:" + port + "/fetch",
                    "SERVERFS_AGENT_EGRESS_ALLOW=127.0.0.1:" + port);
            Files.writeString(work.resolve("fetch.py"), """
                    import urllib.request
                    try:
                        print(urllib.request.urlopen('http://127.0.0.1:%s/healthz', timeout=10).read().decode())
                    except Exception as e:
                        print('refused', type(e).__name__)
                    """.formatted(port));
            String out = run(config, "python3 fetch.py");
            assertTrue(out.startsWith("refused"), "the sidecar is refused: " + out);
        } finally {
            sidecar.stop(0);
        }
    }

    /**
     * Names that are not valid UTF-8 (which no Java string can carry) in a subdirectory: a secret file beside an
     * ordinary one, and ServerFS' own paths (a nested workdir, the {@code --env-file}) that a task moved under such
     * names. The child reads none of them and still reads the ordinary file: each such entry is concealed itself,
     * not the directory that holds it.
     */
    @Test
    void names_that_are_not_utf8_in_a_subdirectory_are_concealed_not_their_directory() throws Exception {
        assertNamesThatAreNotUtf8AreConcealed("sub/");
    }

    /** The same at the workdir's top level, where the submit's walk used to fail: it succeeds. */
    @Test
    void names_that_are_not_utf8_at_the_top_level_are_concealed_and_the_submit_succeeds() throws Exception {
        assertNamesThatAreNotUtf8AreConcealed("");
    }

    private void assertNamesThatAreNotUtf8AreConcealed(String where) throws Exception {
        ServerFsConfig config = nestedWorkdirAndEnvFile();
        Files.createDirectories(work.resolve("sub"));
        Files.writeString(work.resolve("sub/sibling.txt"), "ordinary sibling\n");
        // $s (\377) names a secret file; $w (\376) and $c (\375) are where a task moved the nested workdir's parent
        // and the env file's directory
        String names = "s=\"" + where + "$(printf 's\\377')\"; w=\"" + where + "$(printf 'w\\376')\"; c=\"" + where
                + "$(printf 'c\\375')\"; ";
        try (LinuxWorkdirFileSystem fs = EmbeddedAgent.workingDirectories(config.agent(), config.workdirs());
                HeldDirectory held = fs.hold(config.workdirs().all().getFirst(), WorkdirPath.ROOT)) {
            shell(work, names + "printf planted-secret > \"$s\"; mv a \"$w\"; mv cfg \"$c\"");
            List<ProviderView.Concealed> concealed =
                    fs.deniedEntries(config.workdirs().all().getFirst(), 4096);
            String out = start(wrap(
                    config,
                    names + "cat \"$s\" \"$w/b/inner.txt\" \"$c/serverfs.conf\"; cat notes.txt sub/sibling.txt",
                    held.root(),
                    held.path(),
                    concealed));
            assertTrue(out.contains("ordinary notes") && out.contains("ordinary sibling"), "the rest is shown: " + out);
            for (String secret : List.of("planted-secret", "inner-secret", TOKEN)) {
                assertFalse(out.contains(secret), "concealed: " + out);
            }
        }
    }

    /** Runs {@code script} with {@code /bin/sh} in {@code cwd} (names that are not UTF-8 come from its printf). */
    private static void shell(Path cwd, String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-ec", script)
                .directory(cwd.toFile())
                .inheritIO()
                .start();
        assertEquals(0, p.waitFor());
    }
}
