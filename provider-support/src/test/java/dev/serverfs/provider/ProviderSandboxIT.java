package dev.serverfs.provider;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider view (issue 25) built by the real bubblewrap around a shell: what the child reads, writes and reaches.
 * Each test plants a file it must not see or write, and proves the attack works without the view.
 */
class ProviderSandboxIT {
    private static final String PATH = System.getenv("PATH");

    @TempDir
    Path dir;

    private Path home;
    private Path work;
    private Path config;
    private Path state;

    @BeforeEach
    void plant() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        work = Files.createDirectories(dir.resolve("work"));
        config = Files.createDirectories(home.resolve(".provider"));
        state = Files.createDirectories(work.resolve("nested-state"));
        Files.writeString(home.resolve("id_rsa"), "home-secret");
        Files.writeString(config.resolve("auth.json"), "provider-login");
        Files.writeString(work.resolve("notes.txt"), "notes");
        Files.writeString(work.resolve(".env"), "dotenv-secret");
        Files.createDirectories(work.resolve(".ssh"));
        Files.writeString(work.resolve(".ssh/key"), "ssh-secret");
        Files.writeString(state.resolve("tasks.sqlite3"), "state-secret");
        Files.writeString(dir.resolve("outside.txt"), "outside-secret");
    }

    private ProviderSandbox sandbox() {
        ProviderSandbox sandbox =
                ProviderSandbox.confined("bwrap", PATH, List.of(), List.of(state), dir.resolve("homes"));
        assertEquals(
                Optional.empty(),
                sandbox.unavailableReason(),
                "these tests need bubblewrap (Debian: apt-get install bubblewrap) and user namespaces");
        return sandbox;
    }

    /** The sandbox of {@link #sandbox()} whose children reach what {@code egress} admits. */
    private ProviderSandbox sandbox(EgressPolicy egress) {
        return ProviderSandbox.confined(
                "bwrap", PATH, List.of(), List.of(state), dir.resolve("homes"), egress, StandardCharsets.UTF_8);
    }

    private ProviderView view(boolean writable) {
        return view(writable, work);
    }

    /** The view of {@code work}, held as {@code heldRoot}. */
    private ProviderView view(boolean writable, Path heldRoot) {
        return new ProviderView(
                work,
                heldRoot,
                writable,
                List.of(
                        new ProviderView.Concealed(new WorkdirPath(List.of(".env")), false),
                        new ProviderView.Concealed(new WorkdirPath(List.of(".ssh")), true)));
    }

    private static final ProviderSandbox.Grants GRANTS = ProviderSandbox.Grants.none(List.of(), Optional.empty());

    /** Runs {@code script} in {@code sandbox}'s view (or as it is); its stdout and stderr. */
    private String run(ProviderSandbox sandbox, boolean writable, ProviderSandbox.Grants grants, String script)
            throws Exception {
        return run(sandbox, view(writable), grants, script);
    }

    private String run(ProviderSandbox sandbox, ProviderView view, ProviderSandbox.Grants grants, String script)
            throws Exception {
        ProviderCommand command = sandbox.wrap(
                new ProviderCommand(
                        List.of("/bin/sh", "-c", script),
                        view.root(),
                        Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin", "TMPDIR", dir.toString()),
                        1024),
                view,
                grants);
        return start(command);
    }

    private static final String READ_ALL = "cat notes.txt; cat .env; cat .ssh/key; cat nested-state/tasks.sqlite3;"
            + " cat $HOME/id_rsa; cat ../outside.txt; echo; echo tmpdir=$TMPDIR";

    @Test
    void the_attack_reads_everything_without_the_view() throws Exception {
        String out = run(ProviderSandbox.unconfined(), true, GRANTS, READ_ALL);
        for (String secret : List.of("dotenv-secret", "ssh-secret", "state-secret", "home-secret", "outside-secret")) {
            assertTrue(out.contains(secret), "the unconfined child reads " + secret + ": " + out);
        }
    }

    @Test
    void the_child_reads_its_workdir_and_nothing_deny_listed_private_or_outside() throws Exception {
        String out = run(sandbox(), true, GRANTS, READ_ALL);
        assertTrue(out.contains("notes"), out);
        for (String secret : List.of("dotenv-secret", "ssh-secret", "state-secret", "home-secret", "outside-secret")) {
            assertFalse(out.contains(secret), "the view conceals " + secret + ": " + out);
        }
        assertTrue(out.contains("tmpdir=\n") || out.endsWith("tmpdir="), "TMPDIR is not passed: " + out);
    }

    @Test
    void workspace_write_writes_only_the_workdir_and_review_writes_nothing() throws Exception {
        String writes =
                "echo a > made.txt; echo b > .env; echo c > $HOME/planted; echo d > ../planted; echo e > /tmp/t";
        run(sandbox(), true, GRANTS, writes);
        assertEquals("a\n", Files.readString(work.resolve("made.txt")));
        assertEquals("dotenv-secret", Files.readString(work.resolve(".env")), "a concealed file cannot be written");
        assertFalse(Files.exists(home.resolve("planted")));
        assertFalse(Files.exists(dir.resolve("planted")));
        Files.delete(work.resolve("made.txt"));

        String out = run(sandbox(), false, GRANTS, writes + "; rm notes.txt");
        assertFalse(Files.exists(work.resolve("made.txt")), out);
        assertEquals("notes", Files.readString(work.resolve("notes.txt")), "review cannot delete");
    }

    /**
     * Each workdir has its own configuration directory: what a task of one workdir wrote there (a transcript) a task
     * of another never reads, a later task of the same workdir does; the operator's directory is not shown.
     */
    @Test
    void the_providers_configuration_is_the_workdirs_own() throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(config.resolve("history.jsonl"), "operator-history");
        ProviderSandbox.Grants grants = grants();
        String write = "echo transcript-of-work > $HOME/.provider/sessions.jsonl; cat $HOME/.provider/history.jsonl";
        String out = run(sandbox(), true, grants, write);
        assertFalse(out.contains("operator-history"), "the operator's own directory is not shown: " + out);
        assertFalse(Files.exists(config.resolve("sessions.jsonl")), "nor written");

        String read = "cat $HOME/.provider/sessions.jsonl; cat $HOME/.provider.json";
        String elsewhere = run(sandbox(), new ProviderView(other, other, true, List.of()), grants, read);
        assertFalse(elsewhere.contains("transcript-of-work"), "another workdir's task reads it: " + elsewhere);
        assertTrue(elsewhere.contains("{}"), "a missing configuration file starts as given: " + elsewhere);
        assertTrue(run(sandbox(), true, grants, read).contains("transcript-of-work"), "the workdir keeps its own");
    }

    /**
     * The {@code emptied} names of the configuration (a subagent's directory, an instructions file) are empty and
     * read-only in every view: what a task writes there fails, and what lay there before is not shown.
     */
    @Test
    void the_emptied_names_of_the_configuration_stay_empty_and_read_only() throws Exception {
        ProviderSandbox.Grants plain = grants();
        ProviderSandbox.Grants emptied = grants(
                plain.files(),
                List.of(
                        ProviderSandbox.Grants.Emptied.directory(config.resolve("agents")),
                        ProviderSandbox.Grants.Emptied.file(config.resolve("MEMORY.md"))));
        String plant = "mkdir -p $HOME/.provider/agents && echo planted-agent > $HOME/.provider/agents/a.md;"
                + " echo planted-memory > $HOME/.provider/MEMORY.md;"
                + " cat $HOME/.provider/agents/a.md $HOME/.provider/MEMORY.md";
        assertTrue(run(sandbox(), true, plain, plant).contains("planted-agent"), "without it, the attack works");
        String out =
                run(sandbox(), true, emptied, plant + "; rm -rf $HOME/.provider/agents; ls $HOME/.provider/agents");
        assertFalse(out.contains("planted"), "what a task planted before is shown, or a task could write: " + out);
        assertTrue(out.contains("Read-only file system"), out);
        assertFalse(run(sandbox(), true, emptied, "cat $HOME/.provider/agents/a.md $HOME/.provider/MEMORY.md")
                .contains("planted"));
    }

    /**
     * What a task of a version that did not protect a name yet could leave at it in the workdir's directory (inside a
     * view, a mounted name cannot be replaced): a symbolic link, where bubblewrap would mount at its target, over the
     * workdir's own files, or the wrong type, where it would fail, at every later task of the workdir. It is removed
     * before the view is built.
     */
    @Test
    void a_link_or_a_wrong_type_left_at_a_protected_name_is_removed_before_the_view_is_built() throws Exception {
        Files.createDirectories(work.resolve("src"));
        Files.writeString(work.resolve("src/main.c"), "source");
        ProviderSandbox.Grants unprotected = new ProviderSandbox.Grants(
                List.of(config),
                Map.of(),
                Optional.empty(),
                Map.of(),
                List.of(),
                Optional.empty(),
                List.of(),
                List.of());
        String plant = "ln -s " + work.resolve("src") + " $HOME/.provider/agents; ln -s " + work.resolve("notes.txt")
                + " $HOME/.provider/settings.json; mkdir -p $HOME/.provider/MEMORY.md/x;"
                + " ln -s " + work + " $HOME/.provider/session-env";
        run(sandbox(), true, unprotected, plant);
        ProviderSandbox.Grants protectedNames = grants(
                Map.of(),
                List.of(
                        ProviderSandbox.Grants.Emptied.directory(config.resolve("agents")),
                        ProviderSandbox.Grants.Emptied.file(config.resolve("MEMORY.md")),
                        ProviderSandbox.Grants.Emptied.freshDirectory(config.resolve("session-env"))));

        String out = run(
                sandbox(),
                true,
                protectedNames,
                "echo BEGIN; cat notes.txt src/main.c; echo; ls -A $HOME/.provider/agents $HOME/.provider/session-env;"
                        + " cat $HOME/.provider/MEMORY.md $HOME/.provider/settings.json; echo END");
        assertTrue(
                out.contains("BEGIN\nnotessource\n") && out.contains("{\"default\":true}END"),
                "the view is built as it must be, the workdir's files shown as they are: " + out);
        assertEquals("notes", Files.readString(work.resolve("notes.txt")));
        assertEquals(List.of("main.c"), list(work.resolve("src")), "nothing was mounted over the workdir's files");
    }

    private static List<String> list(Path directory) throws java.io.IOException {
        try (var names = Files.list(directory)) {
            return names.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * The fresh names of the configuration (a global configuration the provider rewrites, a directory of session
     * scripts) start as given in every view, are writable, and nothing written there reaches the next view or the
     * workdir's directory.
     */
    @Test
    void the_fresh_names_of_the_configuration_start_anew_in_every_view() throws Exception {
        ProviderSandbox.Grants fresh = grants(
                Map.of(),
                List.of(
                        ProviderSandbox.Grants.Emptied.freshDirectory(config.resolve("session-env")),
                        ProviderSandbox.Grants.Emptied.freshFile(config.resolve("global.json"), "{}"),
                        ProviderSandbox.Grants.Emptied.freshFile(home.resolve(".provider.json"), "{}")));
        String write =
                "echo BEGIN; cat $HOME/.provider/global.json $HOME/.provider.json; ls -A $HOME/.provider/session-env;"
                        + " echo END; echo planted > $HOME/.provider/global.json; echo planted > $HOME/.provider.json;"
                        + " echo planted > $HOME/.provider/session-env/s.sh; cat $HOME/.provider/session-env/s.sh";
        String first = run(sandbox(), true, fresh, write);
        assertTrue(first.contains("BEGIN\n{}{}END\nplanted"), "a fresh name starts as given and is writable: " + first);
        String second = run(sandbox(), true, fresh, write);
        assertTrue(second.contains("BEGIN\n{}{}END\n"), "what a view wrote reached the next: " + second);
        try (var files = Files.walk(dir.resolve("homes"))) {
            assertFalse(
                    files.filter(Files::isRegularFile).anyMatch(f -> {
                        try {
                            return Files.readString(f).contains("planted");
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    }),
                    "what a view wrote reached the workdir's directory");
        }
    }

    /**
     * The operator's login reaches each view as a read-only copy taken when the child starts, its refresh token
     * blanked: a task that writes it (the provider, or a command a human approved) changes nothing for the operator
     * or for a task of another workdir, which could otherwise read what it left there, or use another account's
     * token. The operator's settings are read-only, and where there are none the default is, so no task plants a
     * setting the provider acts on later.
     */
    @Test
    void the_login_is_a_read_only_copy_and_the_settings_are_read_only() throws Exception {
        String login = "{\"access\":\"access-1\",\"refresh\":\"refresh-secret\",\"expires\":4102444800}";
        Files.writeString(config.resolve("auth.json"), login);
        ProviderSandbox.Grants grants = grants();
        String out = run(
                sandbox(),
                true,
                grants,
                "cat $HOME/.provider/auth.json; echo; echo '{\"access\":\"left-by-a\"}' > $HOME/.provider/auth.json;"
                        + " cp $HOME/.provider/auth.json /tmp/x && mv /tmp/x $HOME/.provider/auth.json;"
                        + " rm -f $HOME/.provider/auth.json;"
                        + " cat $HOME/.provider/settings.json; echo; echo planted > $HOME/.provider/settings.json;"
                        + " rm -f $HOME/.provider/settings.json; mv $HOME/.provider/settings.json x; cat $HOME/.provider/settings.json");
        assertTrue(out.contains("access-1"), "the provider reads the login: " + out);
        assertFalse(out.contains("refresh-secret"), "but not its refresh token: " + out);
        assertEquals(login, Files.readString(config.resolve("auth.json")), "the operator's login is unchanged");
        assertFalse(out.contains("planted"), "the default settings cannot be changed: " + out);
        assertTrue(out.strip().endsWith("{\"default\":true}"), out);

        Path other = Files.createDirectories(dir.resolve("other"));
        Files.writeString(other.resolve(".env"), "other-secret");
        List<ProviderView.Concealed> env = List.of(new ProviderView.Concealed(".env".getBytes(UTF_8), false));
        String elsewhere = run(
                sandbox(),
                new ProviderView(other, other, true, env),
                grants,
                "cat $HOME/.provider/auth.json; cat .env");
        assertTrue(elsewhere.contains("access-1"), "beside concealed entries too: " + elsewhere);
        assertFalse(elsewhere.contains("other-secret"), elsewhere);
        assertFalse(elsewhere.contains("left-by-a"), "another workdir's task reads what a task left: " + elsewhere);
        assertFalse(
                run(sandbox(), true, grants, "cat $HOME/.provider/auth.json").contains("left-by-a"), "nor a later one");

        Files.writeString(config.resolve("settings.json"), "{\"operator\":true}");
        String operator = run(
                sandbox(),
                true,
                grants,
                "echo planted > $HOME/.provider/settings.json; cat $HOME/.provider/settings.json");
        assertFalse(operator.contains("planted"), operator);
        assertTrue(operator.contains("{\"operator\":true}"), operator);
        assertEquals("{\"operator\":true}", Files.readString(config.resolve("settings.json")));
    }

    /**
     * What bubblewrap reads on descriptors (the concealed entries, the login's copy: here both) is written to files the
     * launcher opens and removes; one that cannot be opened (removed meanwhile) leaves none of the others behind, the
     * login's tokens among them, and runs nothing.
     */
    @Test
    void the_descriptor_files_are_removed_even_when_one_cannot_be_opened() throws Exception {
        ProviderCommand command =
                runsWithTheLogin(work, List.of(new ProviderView.Concealed(".env".getBytes(UTF_8), false)));
        List<Path> files = command.launchFiles();
        assertEquals(2, files.size(), command.argv().toString());
        Files.delete(files.get(1));

        String out = start(command);
        assertFalse(out.contains("RAN"), out);
        assertFalse(Files.exists(files.get(0)), "a descriptor file was left behind");
    }

    @Test
    void the_descriptor_files_are_removed_when_the_child_cannot_start() throws Exception {
        Path cwd = Files.createDirectories(work.resolve("sub"));
        ProviderCommand command = runsWithTheLogin(cwd, List.of());
        assertEquals(1, command.launchFiles().size(), "the login's copy is read on a descriptor");
        assertTrue(command.argv().contains(command.launchFiles().getFirst().toString()));
        Files.delete(cwd); // the child cannot start in it

        ServerFsException e = assertThrows(ServerFsException.class, () -> ProviderChild.start(command));
        assertEquals(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, e.code());
        assertFalse(Files.exists(command.launchFiles().getFirst()), "the login's copy was left behind");
    }

    /** {@code echo RAN} in {@code cwd}, in the view of the workdir with {@code concealed} and the operator's login. */
    private ProviderCommand runsWithTheLogin(Path cwd, List<ProviderView.Concealed> concealed) throws Exception {
        Files.writeString(config.resolve("auth.json"), "{\"access\":\"access-1\",\"refresh\":\"\",\"expires\":0}");
        return sandbox()
                .wrap(
                        new ProviderCommand(
                                List.of("/bin/sh", "-c", "echo RAN"),
                                cwd,
                                Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                                1024),
                        new ProviderView(work, work, true, concealed),
                        grants());
    }

    /** {@link #grants()} with these {@code files} and {@code emptied} names. */
    private ProviderSandbox.Grants grants(Map<Path, String> files, List<ProviderSandbox.Grants.Emptied> emptied) {
        ProviderSandbox.Grants plain = grants();
        return new ProviderSandbox.Grants(
                plain.directories(),
                files,
                plain.login(),
                plain.settings(),
                plain.readOnly(),
                plain.offlineShell(),
                plain.projectConfiguration(),
                emptied);
    }

    private ProviderSandbox.Grants grants() {
        return new ProviderSandbox.Grants(
                List.of(config),
                Map.of(home.resolve(".provider.json"), "{}"),
                Optional.of(new ProviderLogin(config.resolve("auth.json"), TestLogin.FORMAT, Instant.now())),
                Map.of(config.resolve("settings.json"), "{\"default\":true}"),
                List.of(),
                Optional.empty(),
                List.of(".provider"),
                List.of());
    }

    /**
     * The provider reads its project configuration in the task's directory and each one above it up to the root
     * (Codex: {@code .codex}); any task can write it, so the view conceals it there.
     */
    @Test
    void the_project_configuration_on_the_way_to_the_tasks_directory_is_concealed() throws Exception {
        Path sub = Files.createDirectories(work.resolve("sub"));
        for (Path d : List.of(work, sub, Files.createDirectories(work.resolve("elsewhere")))) {
            Files.createDirectories(d.resolve(".provider"));
            Files.writeString(d.resolve(".provider/config"), "planted-in-" + d.getFileName());
        }
        Files.writeString(sub.resolve(".provider.json"), "not-configuration");
        ProviderCommand command = new ProviderCommand(
                List.of("/bin/sh", "-c", "cat ../.provider/config .provider/config ../elsewhere/.provider/config"),
                sub,
                Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                1024);
        String out = start(sandbox().wrap(command, view(true), grants()));
        assertFalse(out.contains("planted-in-work"), out);
        assertFalse(out.contains("planted-in-sub"), out);
        assertTrue(out.contains("planted-in-elsewhere"), "not where the provider looks: " + out);
    }

    @Test
    void the_offline_shell_runs_a_command_without_network() throws Exception {
        ProviderSandbox.Grants grants = ProviderSandbox.Grants.none(List.of(), Optional.of("SHELL_PREFIX"));
        String out = run(
                sandbox(),
                true,
                grants,
                "\"$SHELL_PREFIX\" 'cat /proc/net/dev | wc -l; cat notes.txt; echo; ls -A /run/serverfs/egress | wc -l';"
                        + " cat /proc/net/dev | wc -l; ls -A /run/serverfs/egress; echo $HTTPS_PROXY");
        String[] lines = out.strip().split("\n");
        assertEquals("3", lines[0].strip(), "only loopback in the offline shell: " + out);
        assertEquals("notes", lines[1].strip(), "the same view: " + out);
        assertEquals("0", lines[2].strip(), "the offline shell does not see the egress relay: " + out);
        assertEquals("3", lines[3].strip(), "the provider itself has only loopback too: " + out);
        assertEquals("egress.sock", lines[4].strip(), "and the relay's socket: " + out);
        assertEquals("http://127.0.0.1:" + ProviderSandbox.EGRESS_PORT, lines[5].strip(), out);
    }

    /** Prints what {@code http://127.0.0.1:<port>/} answered through the proxy, or NO, for each port given. */
    private static final String FETCH = "import sys, urllib.request\n"
            + "for port in sys.argv[1:]:\n"
            + "    try:\n"
            + "        print(urllib.request.urlopen('http://127.0.0.1:%s/' % port, timeout=10).read().decode())\n"
            + "    except Exception:\n"
            + "        print('NO')\n";

    /**
     * The view's network namespace has loopback only; through the forwarder and the relay the child reaches what the
     * policy admits, and neither a loopback server it does not admit nor ServerFS' own port, listed or not.
     */
    @Test
    void the_view_reaches_through_the_relay_only_what_its_policy_admits() throws Exception {
        List<HttpServer> servers = new ArrayList<>();
        try {
            for (String name : List.of("allowed", "unlisted", "own")) {
                HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
                server.createContext("/", exchange -> {
                    byte[] body = name.getBytes(StandardCharsets.UTF_8);
                    exchange.sendResponseHeaders(200, body.length);
                    exchange.getResponseBody().write(body);
                    exchange.close();
                });
                server.start();
                servers.add(server);
            }
            int allowed = servers.get(0).getAddress().getPort();
            int unlisted = servers.get(1).getAddress().getPort();
            int own = servers.get(2).getAddress().getPort();
            ProviderSandbox sandbox = sandbox(
                    EgressPolicy.of(Map.of(), List.of("127.0.0.1:" + allowed, "127.0.0.1:" + own), Set.of(own)));
            Files.writeString(work.resolve("fetch.py"), FETCH);
            String out = run(
                    sandbox,
                    true,
                    GRANTS,
                    "python3 fetch.py " + allowed + " " + unlisted + " " + own
                            + "; HTTPS_PROXY= HTTP_PROXY= http_proxy="
                            + " https_proxy= ALL_PROXY= all_proxy= python3 fetch.py " + allowed + " " + unlisted);
            assertEquals(
                    List.of("allowed", "NO", "NO", "NO", "NO"),
                    List.of(out.strip().split("\n")),
                    out);
        } finally {
            servers.forEach(s -> s.stop(0));
        }
    }

    /**
     * A provider executable installed directly in the home (an operator's {@code ~/codex}) is shown alone: not the
     * home around it, which the view keeps private; one in a directory of its own brings that directory.
     */
    @Test
    void an_executable_in_the_home_shows_itself_not_the_home() throws Exception {
        Path exe = home.resolve("provider");
        Files.writeString(exe, "#!/bin/sh\necho provider-ran\n");
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwx------"));
        Map<String, String> environment = Map.of("HOME", home.toString(), "PATH", home + ":/usr/bin:/bin");
        Optional<Path> installation = ProviderSandbox.installation("provider", environment);
        assertEquals(Optional.of(exe.toRealPath()), installation);

        String out = run(
                sandbox(),
                true,
                ProviderSandbox.Grants.none(installation.stream().toList(), Optional.empty()),
                exe + "; cat $HOME/id_rsa; cat $HOME/.provider/auth.json");
        assertTrue(out.contains("provider-ran"), out);
        assertFalse(out.contains("home-secret") || out.contains("provider-login"), out);

        Path bin = Files.createDirectories(home.resolve("tools/bin"));
        Files.move(exe, bin.resolve("provider"));
        assertEquals(
                Optional.of(bin.toRealPath()),
                ProviderSandbox.installation("provider", Map.of("HOME", home.toString(), "PATH", bin.toString())));
    }

    /**
     * A view with as many concealed directories as a submit admits ({@code TaskSubmission.MAX_CONCEALED_ENTRIES},
     * each up to six of bubblewrap's arguments, of which it takes 9,000 at most) still starts, and hides them.
     */
    @Test
    void a_view_with_as_many_concealed_directories_as_a_submit_admits_starts() throws Exception {
        int cap = dev.serverfs.application.service.agent.TaskSubmission.MAX_CONCEALED_ENTRIES;
        List<ProviderView.Concealed> concealed = new ArrayList<>();
        for (int i = 0; i < cap; i++) {
            Path d = Files.createDirectories(work.resolve("many/d" + i));
            Files.writeString(d.resolve("secret"), "deep-secret");
            concealed.add(new ProviderView.Concealed(new WorkdirPath(List.of("many", "d" + i)), true));
        }
        String out = run(
                sandbox(),
                new ProviderView(work, work, true, concealed),
                GRANTS,
                "cat many/d0/secret many/d" + (cap - 1) + "/secret; cat notes.txt");
        assertTrue(out.contains("notes"), out);
        assertFalse(out.contains("deep-secret"), out);
    }

    /** Holds every connection the relay admits, until its stdin closes; prints "held" once a probe is refused. */
    private static final String HOLD_RELAY =
            """
            import socket, sys
            def connect():
                s = socket.socket(socket.AF_UNIX)
                s.connect('/run/serverfs/egress/egress.sock')
                return s
            held = [connect() for _ in range(EgressRelayLimit)]
            while True:
                probe = connect()
                try:
                    probe.sendall(b'CONNECT 127.0.0.1:%s HTTP/1.1\\r\\n\\r\\n' % sys.argv[1].encode())
                    if probe.recv(12) == b'':
                        break
                except OSError:
                    break
                held.append(probe)
            print('held', flush=True)
            sys.stdin.read()
            """.replace("EgressRelayLimit", Integer.toString(EgressRelay.MAX_CONNECTIONS));

    /**
     * A task that holds every connection its relay admits (and keeps them: head-less ones last 30 s, tunnels for ever)
     * cuts off the tasks of its own workdir only: another workdir's task still reaches its model.
     */
    @Test
    void a_task_holding_every_relay_connection_cuts_off_no_other_workdir() throws Exception {
        HttpServer model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        model.createContext("/", exchange -> {
            byte[] body = "model".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        model.start();
        Process attacker = null;
        try {
            int port = model.getAddress().getPort();
            ProviderSandbox sandbox = sandbox(EgressPolicy.of(Map.of(), List.of("127.0.0.1:" + port), Set.of()));
            Files.writeString(work.resolve("hold.py"), HOLD_RELAY);
            Files.writeString(work.resolve("fetch.py"), FETCH);
            ProviderCommand hold = sandbox.wrap(
                    new ProviderCommand(
                            List.of("python3", "hold.py", Integer.toString(port)),
                            work,
                            Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                            1024),
                    view(true),
                    GRANTS);
            ProcessBuilder builder =
                    new ProcessBuilder(hold.argv()).directory(work.toFile()).redirectErrorStream(true);
            builder.environment().clear();
            builder.environment().putAll(hold.environment());
            attacker = builder.start();
            java.io.BufferedReader said = new java.io.BufferedReader(
                    new java.io.InputStreamReader(attacker.getInputStream(), StandardCharsets.UTF_8));
            String held = said.readLine();
            if (!"held".equals(held)) {
                attacker.getOutputStream().close();
                fail("the attacker did not fill its relay: " + held + "\n"
                        + String.join("\n", said.lines().toList()));
            }

            Path other = Files.createDirectories(dir.resolve("other-work"));
            Files.writeString(other.resolve("fetch.py"), FETCH);
            String out =
                    run(sandbox, new ProviderView(other, other, true, List.of()), GRANTS, "python3 fetch.py " + port);
            assertEquals("model", out.strip(), "another workdir's task reaches its model");
            assertEquals(
                    "NO",
                    run(sandbox, true, GRANTS, "python3 fetch.py " + port).strip(),
                    "the attacker's own workdir is cut off (what it did to itself)");
        } finally {
            if (attacker != null) {
                attacker.destroyForcibly().waitFor();
            }
            model.stop(0);
        }
    }

    /**
     * A process that holds {@code directory} as its working directory until destroyed: {@code /proc/<pid>/cwd} names
     * that very directory whatever happens to its name, as {@code HeldDirectory#path} does in the server.
     */
    private static Process holder(Path directory) throws Exception {
        return new ProcessBuilder("cat").directory(directory.toFile()).start();
    }

    private static Path held(Process holder) {
        return Path.of("/proc", Long.toString(holder.pid()), "cwd");
    }

    /** {@code command} as the runtime starts it: in its held directory; its stdout and stderr once it ended. */
    static String start(ProviderCommand command) throws Exception {
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

    private ProviderCommand readOutside(Path cwd) {
        return new ProviderCommand(
                List.of(
                        "/bin/sh",
                        "-c",
                        "cat notes.txt; cat ../outside.txt; cat secret.txt; cat " + dir.resolve("outside.txt")),
                cwd,
                Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin"),
                1024);
    }

    @Test
    void a_workdir_swapped_for_a_link_to_a_directory_above_it_after_the_submit_shows_nothing_of_it() throws Exception {
        Process holder = holder(work);
        try {
            // the submit held the workdir; then a task of an outer workdir moves it and links its name to a directory
            // above the moved one (here its parent; "/" would show the whole host)
            Files.move(work, dir.resolve("moved"));
            Files.createSymbolicLink(work, dir);
            String out;
            try {
                out = start(sandbox().wrap(readOutside(held(holder)), view(true, held(holder)), GRANTS));
            } catch (ServerFsException e) {
                out = e.code().name();
            }
            assertFalse(out.contains("outside-secret"), "the child sees nothing beyond its workdir: " + out);
            assertTrue(out.startsWith("notes"), "the child works in its held workdir: " + out);
        } finally {
            holder.destroy();
        }
    }

    @Test
    void a_workdir_swapped_for_a_link_after_its_view_was_built_shows_nothing_of_the_target() throws Exception {
        Path secrets = Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(secrets.resolve("secret.txt"), "linked-secret");
        Process holder = holder(work);
        try {
            ProviderCommand command = sandbox().wrap(readOutside(held(holder)), view(true, held(holder)), GRANTS);
            // between the view's building and bubblewrap's mounts the workdir's name is swapped for a link
            Files.move(work, dir.resolve("moved"));
            Files.createSymbolicLink(work, secrets);
            String out = start(command);
            assertFalse(out.contains("linked-secret"), "the link's target is not shown: " + out);
            assertFalse(out.contains("outside-secret"), out);
            assertTrue(out.contains("the view shows another directory"), "nothing ran: " + out);
        } finally {
            holder.destroy();
        }
    }

    @Test
    void a_task_held_in_a_subdirectory_starts_there_in_the_view() throws Exception {
        Path sub = Files.createDirectories(work.resolve("sub"));
        Process holder = holder(sub);
        try {
            ProviderCommand command = new ProviderCommand(
                    List.of("/bin/sh", "-c", "pwd; cat ../notes.txt"),
                    held(holder),
                    Map.of("PATH", "/usr/bin:/bin"),
                    1024);
            assertEquals(sub + "\nnotes", start(sandbox().wrap(command, view(false), GRANTS)));
        } finally {
            holder.destroy();
        }
    }

    /**
     * Entries given by their bytes, as the submit's walk finds them: names that are not valid UTF-8, one with a
     * newline and a space, one that reads like an option. Each is concealed exactly, its siblings are shown; the file
     * bubblewrap read them from is gone once the child started.
     */
    @Test
    void entries_named_by_bytes_that_are_not_utf8_are_concealed_exactly() throws Exception {
        Files.createDirectories(work.resolve("sub"));
        Files.writeString(work.resolve("sub/sibling.txt"), "sibling");
        shell("printf file-secret > \"$(printf 'sub/a\\nb \\377')\"; mkdir \"$(printf 'd\\376')\";"
                + " printf dir-secret > \"$(printf 'd\\376/s')\"; printf option-secret > ./--tmpfs");
        List<ProviderView.Concealed> concealed = List.of(
                new ProviderView.Concealed(bytes("sub/a\nb ", 0xff), false),
                new ProviderView.Concealed(bytes("d", 0xfe), true),
                new ProviderView.Concealed(new WorkdirPath(List.of("--tmpfs")), false));
        ProviderCommand command = sandbox()
                .wrap(
                        new ProviderCommand(
                                List.of(
                                        "/bin/sh",
                                        "-c",
                                        "cat \"$(printf 'sub/a\\nb \\377')\" \"$(printf 'd\\376/s')\" ./--tmpfs;"
                                                + " cat notes.txt sub/sibling.txt"),
                                work,
                                Map.of("PATH", "/usr/bin:/bin"),
                                1024),
                        new ProviderView(work, work, true, concealed),
                        GRANTS);
        Path arguments = Path.of(command.argv().get(4));
        assertTrue(Files.isRegularFile(arguments), "the arguments wait in their file: " + command.argv());
        String out = start(command);
        assertTrue(out.contains("notes") && out.contains("sibling"), "the siblings are shown: " + out);
        for (String secret : List.of("file-secret", "dir-secret", "option-secret")) {
            assertFalse(out.contains(secret), "concealed: " + out);
        }
        assertFalse(Files.exists(arguments), "the arguments' file is removed before bubblewrap starts");
        try (var left = Files.list(arguments.getParent())) {
            assertEquals(0, left.count(), "nothing is left in the owner-only directory");
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(arguments.getParent())));
    }

    /** {@code prefix} in UTF-8, then the byte {@code last}. */
    private static byte[] bytes(String prefix, int last) {
        byte[] start = prefix.getBytes(StandardCharsets.UTF_8);
        byte[] path = java.util.Arrays.copyOf(start, start.length + 1);
        path[start.length] = (byte) last;
        return path;
    }

    /** {@code script} run by {@code /bin/sh} in the workdir (names that are not UTF-8 come from its printf). */
    private void shell(String script) throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-ec", script)
                .directory(work.toFile())
                .inheritIO()
                .start();
        assertEquals(0, p.waitFor(), "the script ran");
    }

    @Test
    void a_working_directory_outside_the_workdir_is_refused_and_unconfined_changes_nothing() {
        ProviderCommand outside = new ProviderCommand(List.of("/bin/true"), dir, Map.of(), 1024);
        ServerFsException e =
                assertThrows(ServerFsException.class, () -> sandbox().wrap(outside, view(true), GRANTS));
        assertEquals(ErrorCode.AGENT_PROVIDER_ERROR, e.code());
        assertSame(outside, ProviderSandbox.unconfined().wrap(outside, view(true), GRANTS));
    }

    @Test
    void a_missing_bubblewrap_is_a_reason_without_a_path() {
        Optional<String> reason = ProviderSandbox.confined(
                        dir.resolve("no-bwrap").toString(), PATH, List.of(), List.of(), dir.resolve("homes"))
                .unavailableReason();
        assertTrue(reason.orElseThrow().contains("bubblewrap"));
        assertFalse(reason.get().contains(dir.toString()));
        assertEquals(Optional.empty(), ProviderSandbox.unconfined().unavailableReason());
    }

    @Test
    void a_view_without_the_tools_of_the_held_root_check_is_a_reason() throws Exception {
        // A bubblewrap that builds every view but one whose command needs stat(1): a system without it.
        Path bwrap = dir.resolve("bwrap-without-stat");
        Files.writeString(bwrap, """
                #!/bin/sh
                for a; do case "$a" in *stat*) exit 127;; esac; done
                exit 0
                """);
        Files.setPosixFilePermissions(bwrap, PosixFilePermissions.fromString("rwx------"));
        Optional<String> reason = ProviderSandbox.confined(
                        bwrap.toString(), PATH, List.of(), List.of(), dir.resolve("homes"))
                .unavailableReason();
        assertTrue(reason.orElseThrow().contains("/usr/bin/stat"));
        assertFalse(reason.get().contains(dir.toString()));
    }

    @Test
    void what_only_root_may_read_is_concealed_beneath_a_directory() throws Exception {
        Path etc = Files.createDirectories(dir.resolve("etc"));
        Files.setPosixFilePermissions(etc, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(
                Files.writeString(etc.resolve("public.conf"), "x"), PosixFilePermissions.fromString("rw-r--r--"));
        Path key = Files.writeString(etc.resolve("host.key"), "x");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        Path privateDir = Files.createDirectories(etc.resolve("private"));
        Files.writeString(privateDir.resolve("inside"), "x");
        Files.setPosixFilePermissions(privateDir, PosixFilePermissions.fromString("rwx--x---"));
        Path open = Files.createDirectories(etc.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path backup = Files.writeString(open.resolve("shadow-"), "x");
        Files.setPosixFilePermissions(backup, PosixFilePermissions.fromString("rw-r-----"));
        Files.createSymbolicLink(etc.resolve("link"), key);

        List<String> argv = new ArrayList<>();
        ProviderSandbox.concealRootOnly(argv, etc);
        assertEquals(
                List.of(
                        "--ro-bind",
                        "/dev/null",
                        key.toString(),
                        "--ro-bind",
                        "/dev/null",
                        backup.toString(),
                        "--perms",
                        "0555",
                        "--tmpfs",
                        privateDir.toString(),
                        "--remount-ro",
                        privateDir.toString()),
                sorted(argv),
                "the unreadable file, the one in a readable directory and the unenterable directory; not the link");
    }

    /** The concealments in path order, each kept whole. */
    private static List<String> sorted(List<String> argv) {
        List<List<String>> items = new ArrayList<>();
        for (int i = 0; i < argv.size(); ) {
            int n = argv.get(i).equals("--perms") ? 6 : 3;
            items.add(argv.subList(i, i + n));
            i += n;
        }
        items.sort(java.util.Comparator.comparing(item -> item.get(0).equals("--perms") ? "~" : item.get(2)));
        return items.stream().flatMap(List::stream).toList();
    }

    @Test
    void a_root_servers_child_does_not_read_the_backups_of_shadow_and_gshadow() throws Exception {
        assumeTrue(((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0, "only when root serves");
        List<Path> backups = List.of(Path.of("/etc/shadow-"), Path.of("/etc/gshadow-")).stream()
                .filter(p -> Files.isRegularFile(p) && Files.isReadable(p))
                .toList();
        assumeTrue(!backups.isEmpty(), "this system keeps no backup of /etc/shadow");
        String out = run(
                sandbox(),
                true,
                GRANTS,
                String.join("; ", backups.stream().map(p -> "cat " + p).toList()));
        for (Path backup : backups) {
            String first = Files.readAllLines(backup).getFirst();
            // the content itself is never put into a message
            assertFalse(out.contains(first), backup + " is concealed");
        }
    }
}
