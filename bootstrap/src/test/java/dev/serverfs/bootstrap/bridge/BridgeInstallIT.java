package dev.serverfs.bootstrap.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/agent-bridge/install.sh} run for real against a temporary {@code HOME} with {@code --no-start} (no
 * systemd needed): it refuses root, and for an ordinary user (uid 65534 through {@code setpriv}, as this suite runs
 * as root) it lays out reference §1.2's files with private modes, writes the validated configuration, the
 * installed release runs as the unit starts it (bound socket, stops with exit 0 on SIGTERM), and a configuration
 * {@code serverfs bridge} would refuse is not installed.
 */
class BridgeInstallIT {
    private static final int NOBODY = 65534;
    private static final Path REPO = Path.of(System.getProperty("user.dir")).getParent();
    private static final Path JAR = REPO.resolve("bootstrap/target/serverfs.jar");

    @TempDir
    Path tmp;

    @Test
    void it_refuses_root_and_creates_nothing() throws Exception {
        assumeTrue(isRoot(), "runs as root to see the refusal");
        Path home = Files.createDirectory(tmp.resolve("home"));
        Path envFile = Files.writeString(tmp.resolve("serverfs.env"), "SERVERFS_AGENT_BRIDGE_ENABLED=true\n");
        Result r = run(
                List.of(),
                home,
                REPO.resolve("deploy/agent-bridge/install.sh"),
                "--env-file",
                envFile.toString(),
                "--no-start");
        assertEquals(2, r.exit(), r.output());
        assertTrue(r.output().contains("refusing to run as root"), r.output());
        try (Stream<Path> entries = Files.list(home)) {
            assertEquals(0, entries.count(), "nothing created in HOME");
        }
    }

    @Test
    void an_ordinary_user_gets_the_layout_with_private_modes_and_a_validated_configuration() throws Exception {
        assumeTrue(isRoot() && Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs root and setpriv");
        assumeTrue(Files.isRegularFile(JAR), "needs the packaged jar");
        // A copy of the scripts and the jar where uid 65534 can read them.
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createDirectories(repo.resolve("deploy/agent-bridge"));
        Files.createDirectories(repo.resolve("scripts"));
        for (String file : List.of(
                "deploy/agent-bridge/install.sh",
                "deploy/agent-bridge/serverfs-agent-bridge.service",
                "scripts/jdk.sh")) {
            Files.copy(REPO.resolve(file), repo.resolve(file));
        }
        Files.setPosixFilePermissions(
                repo.resolve("deploy/agent-bridge/install.sh"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Path jar = Files.copy(JAR, tmp.resolve("serverfs.jar"));
        Path home = Files.createDirectory(tmp.resolve("home"));
        Path work = Files.createDirectory(home.resolve("work"));
        chownTree(home);
        Path envFile = tmp.resolve("serverfs.env");
        Files.writeString(envFile, """
                # the deployment's .env
                SERVERFS_AGENT_BRIDGE_ENABLED=true
                WORKDIR_01_ALIAS=work
                WORKDIR_01_PATH=%s
                WORKDIR_01_READ_ONLY=false
                WORKDIR_01_AGENT_MODE=workspace-write
                WORKDIR_01_AGENT_RUNTIMES=codex
                """.formatted(work));
        Files.setPosixFilePermissions(envFile, PosixFilePermissions.fromString("rw-r--r--"));
        Path install = repo.resolve("deploy/agent-bridge/install.sh");

        Result ok =
                run(asNobody(), home, install, "--env-file", envFile.toString(), "--jar", jar.toString(), "--no-start");
        assertEquals(0, ok.exit(), ok.output());
        assertTrue(ok.output().contains("not started (--no-start)"), ok.output());
        Path config = home.resolve(".config/serverfs-agent-bridge");
        Path share = home.resolve(".local/share/serverfs-agent-bridge");
        Path state = home.resolve(".local/state/serverfs-agent-bridge");
        assertEquals("rwx------", mode(config));
        assertEquals("rw-------", mode(config.resolve("bridge.env")));
        assertEquals("rw-------", mode(config.resolve("provider.env")));
        assertEquals("rwx------", mode(state));
        assertEquals("rwxr-x---", mode(share.resolve("runtime/socket")));
        assertEquals("rwxr-x---", mode(share.resolve("runtime/locks")));
        assertEquals(NOBODY, (int) Files.getAttribute(config.resolve("bridge.env"), "unix:uid"));
        String written = Files.readString(config.resolve("bridge.env"));
        assertTrue(written.startsWith(Files.readString(envFile)), written);
        assertTrue(
                written.contains("SERVERFS_AGENT_BRIDGE_HOST_SOCKET_DIR=" + share.resolve("runtime/socket")), written);
        assertTrue(written.contains("SERVERFS_AGENT_LOCK_HOST_DIR=" + share.resolve("runtime/locks")), written);
        assertTrue(written.contains("SERVERFS_AGENT_BRIDGE_STATE_DIR=" + state), written);
        Path current = share.resolve("current");
        assertTrue(Files.isSymbolicLink(current));
        assertTrue(Files.readSymbolicLink(current).startsWith(share.resolve("releases")));
        assertTrue(Files.isExecutable(current.resolve("serverfs-bridge")));
        String unit = Files.readString(home.resolve(".config/systemd/user/serverfs-agent-bridge.service"));
        assertTrue(
                unit.contains("ExecStart=%h/.local/share/serverfs-agent-bridge/current/serverfs-bridge bridge"
                        + " --env-file %h/.config/serverfs-agent-bridge/bridge.env"),
                unit);
        try (Stream<Path> entries = Files.list(config)) {
            assertEquals(2, entries.count(), "no temp file left beside the configuration");
        }

        // The installed release runs as the unit would start it: the Bridge of that user on runtime/socket.
        Path socket = share.resolve("runtime/socket/bridge.sock");
        List<String> bridge = new ArrayList<>(asNobody());
        bridge.addAll(List.of(
                current.resolve("serverfs-bridge").toString(),
                "bridge",
                "--env-file",
                config.resolve("bridge.env").toString()));
        ProcessBuilder builder = new ProcessBuilder(bridge).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
        builder.environment().put("HOME", home.toString());
        Process running = builder.start();
        try {
            BufferedReader lines =
                    new BufferedReader(new InputStreamReader(running.getInputStream(), StandardCharsets.UTF_8));
            List<String> seen = new ArrayList<>();
            String line;
            while ((line = lines.readLine()) != null && !line.equals(BridgeCommand.READY)) {
                seen.add(line);
            }
            assertEquals(BridgeCommand.READY, line, "the installed Bridge did not start: " + seen);
            assertTrue(
                    Files.readAttributes(socket, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                            .isOther(),
                    "a socket is bound");
            assertEquals(NOBODY, (int) Files.getAttribute(socket, "unix:uid", LinkOption.NOFOLLOW_LINKS));
            assertEquals("rw-------", mode(socket));
            assertEquals("rw-------", mode(share.resolve("runtime/locks/01.lock")));
            assertTrue(Files.isRegularFile(state.resolve("state.sqlite3")), "the store in the state directory");
            running.toHandle().destroy(); // SIGTERM, as systemctl stop sends
            assertTrue(running.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, running.exitValue());
        } finally {
            running.destroyForcibly();
        }

        // A second install keeps the first release as previous; a refused configuration changes nothing.
        Result again =
                run(asNobody(), home, install, "--env-file", envFile.toString(), "--jar", jar.toString(), "--no-start");
        assertEquals(0, again.exit(), again.output());
        assertTrue(Files.isSymbolicLink(share.resolve("previous")));
        Path bad = tmp.resolve("bad.env");
        Files.writeString(bad, "SERVERFS_AGENT_BRIDGE_ENABLED=true\nSERVERFS_AGENT_PEER_UID=alice\n");
        Files.setPosixFilePermissions(bad, PosixFilePermissions.fromString("rw-r--r--"));
        Path before = Files.readSymbolicLink(current);
        Result refused =
                run(asNobody(), home, install, "--env-file", bad.toString(), "--jar", jar.toString(), "--no-start");
        assertEquals(2, refused.exit(), refused.output());
        assertTrue(refused.output().contains("SERVERFS_AGENT_PEER_UID must be an integer"), refused.output());
        assertEquals(written, Files.readString(config.resolve("bridge.env")), "the installed configuration is kept");
        assertEquals(before, Files.readSymbolicLink(current));
        try (Stream<Path> releases = Files.list(share.resolve("releases"))) {
            assertEquals(2, releases.count(), "the refused release is removed");
        }
        assertFalse(Files.exists(share.resolve(".current.tmp"), LinkOption.NOFOLLOW_LINKS));
    }

    private record Result(int exit, String output) {}

    private static List<String> asNobody() {
        return List.of(
                "/usr/bin/setpriv",
                "--reuid",
                Integer.toString(NOBODY),
                "--regid",
                Integer.toString(NOBODY),
                "--clear-groups");
    }

    private static Result run(List<String> prefix, Path home, Path script, String... args) throws Exception {
        List<String> command = new ArrayList<>(prefix);
        command.add("/bin/bash");
        command.add(script.toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
        builder.environment().put("HOME", home.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = builder.start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
            return new Result(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }

    private static boolean isRoot() {
        return ProcessHandle.current().info().user().orElse("").equals("root");
    }

    private static void chownTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.toList()) {
                Files.setAttribute(p, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(p, "unix:gid", NOBODY, LinkOption.NOFOLLOW_LINKS);
            }
        }
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }
}
