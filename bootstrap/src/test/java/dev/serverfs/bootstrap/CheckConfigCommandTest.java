package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.bootstrap.logging.StdStreams;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code serverfs check-config} through {@link ServerFsMain#run}: exit codes, output and what it never prints. */
class CheckConfigCommandTest {

    private static final Path EXAMPLE = Path.of("..", "examples", "local.env");

    @Test
    void the_example_configuration_is_valid_and_printed_per_workdir() throws Exception {
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file", EXAMPLE.toString()));
        assertEquals(0, s.exitCode(), s.err());
        assertTrue(s.out().startsWith("ServerFS configuration OK\n"), s.out());
        assertTrue(s.out().contains("network: host=127.0.0.1 port=8000 "), s.out());
        assertTrue(
                s.out()
                        .contains("transport: max_connections=derived request_body_timeout=60s "
                                + "request_body_min_bytes_per_second=1024\n"),
                s.out());
        assertTrue(s.out().contains("metrics: serve=off bridge=off\n"), s.out());
        assertTrue(s.out().contains("workdirs: 2 (read-write 1)\n"), s.out());
        assertTrue(s.out().contains("  01 docs: read-only allow_hidden=false default_deny=true extra_deny_globs=0 "));
        assertTrue(s.out().contains("  02 scratch: read-write "), s.out());
        String examples = EXAMPLE.toAbsolutePath().normalize().getParent().toString();
        assertFalse(s.out().contains(examples), "host path printed");
        assertFalse(s.out().contains("workdirs/docs"), "host path printed");
        assertEquals("", s.err());
    }

    @Test
    void secrets_globs_and_paths_are_never_printed(@TempDir Path tmp) throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("private-project"));
        Path env = Files.writeString(
                tmp.resolve("test.env"),
                "SERVERFS_AUTH_TOKEN=tok-9f8e7d6c5b\nSERVERFS_EXTRA_DENY_GLOBS=*.hushhush\n"
                        + "SERVERFS_METRICS_HOST=0.0.0.0\nSERVERFS_METRICS_PORT=9464\n"
                        + "WORKDIR_01_ALIAS=proj\nWORKDIR_01_PATH=private-project\n"
                        + "WORKDIR_01_EXTRA_DENY_GLOBS=*.pem,*.hushhush\n");
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file", env.toString()));
        assertEquals(0, s.exitCode(), s.err());
        assertTrue(s.out().contains("auth_token=set"), s.out());
        assertTrue(s.out().contains("metrics: serve=0.0.0.0:9464 serve_token=true bridge=off\n"), s.out());
        assertTrue(s.out().contains("  01 proj: read-only "), s.out());
        assertTrue(s.out().contains(" extra_deny_globs=2 "), s.out());
        for (String secret : new String[] {"tok-9f8e7d6c5b", "hushhush", "*.pem", "private-project", dir.toString()}) {
            assertFalse(s.out().contains(secret), secret);
            assertFalse(s.err().contains(secret), secret);
        }
    }

    @Test
    void a_configuration_error_exits_2_with_the_reason_on_stderr(@TempDir Path tmp) throws Exception {
        Path env = Files.writeString(
                tmp.resolve("bad.env"), "WORKDIR_01_ALIAS=docs\nWORKDIR_01_PATH=" + tmp.resolve("nope") + "\n");
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file", env.toString()));
        assertEquals(2, s.exitCode());
        assertEquals("", s.out());
        String reason = "WORKDIR_01_PATH does not exist (it is never created automatically)";
        assertTrue(s.err().contains("\"event\":\"startup_failed\",\"reason\":\"" + reason + "\""), s.err());
        assertTrue(s.err().endsWith("ServerFS: configuration error: " + reason + "\n"), s.err());
        assertFalse(s.err().contains(tmp.toString()), s.err());
    }

    @Test
    void a_strict_bool_typo_exits_2(@TempDir Path tmp) throws Exception {
        Path env = Files.writeString(tmp.resolve("typo.env"), "SERVERFS_ALLOW_HIDDEN=ture\n");
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file", env.toString()));
        assertEquals(2, s.exitCode());
        assertTrue(s.err().endsWith("ServerFS: configuration error: SERVERFS_ALLOW_HIDDEN must be true or false\n"));
    }

    @Test
    void a_missing_env_file_exits_2_without_showing_its_path(@TempDir Path tmp) throws Exception {
        Path missing = tmp.resolve("absent.env");
        StdStreams s = StdStreams.capture(() -> ServerFsMain.run("check-config", "--env-file", missing.toString()));
        assertEquals(2, s.exitCode());
        assertTrue(s.err()
                .endsWith("ServerFS: configuration error: the --env-file file does not exist or is not a regular"
                        + " file\n"));
        assertFalse(s.err().contains(tmp.toString()));
    }

    @Test
    void with_bridge_it_validates_as_serverfs_bridge_reads_the_file(@TempDir Path tmp) throws Exception {
        StdStreams plain = StdStreams.capture(
                () -> ServerFsMain.run("check-config", "--bridge", "--env-file", EXAMPLE.toString()));
        assertEquals(2, plain.exitCode());
        assertTrue(
                plain.err()
                        .endsWith(
                                "ServerFS: configuration error: serverfs bridge needs SERVERFS_AGENT_BRIDGE_ENABLED=true\n"),
                plain.err());
        Files.createDirectory(tmp.resolve("proj"));
        Path env = Files.writeString(
                tmp.resolve("bridge.env"),
                "SERVERFS_AGENT_BRIDGE_ENABLED=true\nSERVERFS_AGENT_BRIDGE_STATE_DIR=" + tmp.resolve("state")
                        + "\nSERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR=" + tmp.resolve("run")
                        + "\nSERVERFS_AGENT_LOCK_HOST_DIR=" + tmp.resolve("locks")
                        + "\nSERVERFS_AGENT_PEER_UID=1000\nWORKDIR_01_ALIAS=proj\nWORKDIR_01_PATH=proj"
                        + "\nWORKDIR_01_READ_ONLY=false\nWORKDIR_01_AGENT_MODE=workspace-write"
                        + "\nWORKDIR_01_AGENT_RUNTIMES=codex\n");
        StdStreams ok =
                StdStreams.capture(() -> ServerFsMain.run("check-config", "--bridge", "--env-file", env.toString()));
        assertEquals(0, ok.exitCode(), ok.err());
        assertTrue(ok.out().startsWith("ServerFS configuration OK\n"), ok.out());
        assertFalse(ok.out().contains(tmp.toString()), "host path printed");
        try (var entries = Files.list(tmp)) {
            assertEquals(2, entries.count(), "nothing created: only proj and bridge.env");
        }
    }
}
