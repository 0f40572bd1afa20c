package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 24 item 3 at start-up: {@code serve} hosting the Agent, {@code bridge} and {@code check-config} (both
 * readings) refuse a world-writable, group-writable, other-owned or symlinked {@code SERVERFS_AGENT_LOCK_DIR} or
 * {@code active/} beneath it, as they refuse such a state or socket directory: exit 2, one {@code ServerFS: ...}
 * line naming no path, a {@code startup_failed} event, and nothing created.
 */
class LockDirectoryStartupIT {
    private static final Duration WAIT = AgentProbe.WAIT;
    private static final int NOBODY = 65534;

    @TempDir
    Path dir;

    static Stream<Arguments> shapes() {
        List<Arguments> all = new ArrayList<>();
        for (String shape : List.of("world-writable", "group-writable", "other-owned", "symlink")) {
            all.add(Arguments.of(shape, false));
            all.add(Arguments.of(shape, true));
        }
        return all.stream();
    }

    private Map<String, String> env() throws Exception {
        Path proj = Files.createDirectories(dir.resolve("proj"));
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_SOCKET", dir.resolve("run/bridge.sock").toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", dir.resolve("locks").toString());
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", dir.resolve("state").toString());
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", proj.toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "fake");
        return env;
    }

    /** Makes {@code target} the unsafe {@code shape}; its parent is a private directory of this user. */
    private void make(Path target, String shape) throws Exception {
        switch (shape) {
            case "world-writable" -> {
                Files.createDirectory(target);
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
            }
            case "group-writable" -> {
                Files.createDirectory(target);
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwx---"));
            }
            case "other-owned" -> {
                Files.createDirectory(
                        target, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                Files.setAttribute(target, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
            }
            case "symlink" -> {
                Path real = Files.createDirectory(
                        dir.resolve("real-" + target.getFileName()),
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                Files.createSymbolicLink(target, real);
            }
            default -> throw new IllegalArgumentException(shape);
        }
    }

    /** The exact one-line reason, naming no path. */
    private static String reason(String shape, boolean active) {
        String what = active ? "lock directory's active/" : "lock directory";
        return "SERVERFS_AGENT_LOCK_DIR: the " + what + " "
                + switch (shape) {
                    case "other-owned" -> "must be owned by the user running ServerFS";
                    case "symlink" -> "must be a real directory, not a symlink or file";
                    default -> "must be writable by its owner only (mode 0700, or 0750 with a shared group)";
                };
    }

    private Path unsafeLockDirectory(String shape, boolean active) throws Exception {
        assumeTrue(
                !shape.equals("other-owned") || "root".equals(System.getProperty("user.name")),
                "handing a directory to another user needs root");
        Path locks = dir.resolve("locks");
        if (active) {
            Files.createDirectory(
                    locks, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            make(locks.resolve("active"), shape);
        } else {
            make(locks, shape);
        }
        return locks;
    }

    private void assertNothingCreated(Path locks, boolean active) throws Exception {
        assertFalse(Files.exists(dir.resolve("state")), "no task store");
        assertFalse(Files.exists(dir.resolve("run")), "no socket directory");
        try (var entries = Files.list(locks)) {
            assertEquals(active ? List.of(locks.resolve("active")) : List.of(), entries.toList(), "no lock file");
        }
    }

    /** Every shape through both readings of the configuration: {@code serve}'s (embedded) and {@code bridge}'s. */
    @ParameterizedTest(name = "{0} active/: {1}")
    @MethodSource("shapes")
    void both_readings_of_the_configuration_refuse_every_unsafe_shape(String shape, boolean active) throws Exception {
        Path locks = unsafeLockDirectory(shape, active);
        Map<String, String> embedded = env();
        embedded.put("SERVERFS_AGENT_EMBEDDED", "true");
        assertEquals(
                reason(shape, active),
                assertThrows(ConfigurationException.class, () -> ConfigLoader.load(embedded, Optional.empty()))
                        .reason());
        assertEquals(
                reason(shape, active),
                assertThrows(ConfigurationException.class, () -> ConfigLoader.loadBridge(env(), Optional.empty()))
                        .reason());
        assertNothingCreated(locks, active);
    }

    /**
     * {@code serve} beside a Bridge takes leases in the Bridge's lock directory, whoever owns it: a missing one is
     * fine (the Bridge creates it), one anybody but its owner could write, or a symlink, is refused at start-up.
     */
    @ParameterizedTest(name = "{0} active/: {1}")
    @MethodSource("shapes")
    void serve_beside_a_bridge_refuses_a_lock_directory_others_could_write(String shape, boolean active)
            throws Exception {
        assertEquals(
                Path.of(env().get("SERVERFS_AGENT_LOCK_DIR")),
                ConfigLoader.load(env(), Optional.empty()).agent().lockDir());
        Path locks = unsafeLockDirectory(shape, active);
        if (shape.equals("other-owned")) {
            if (!active) {
                ConfigLoader.load(env(), Optional.empty()); // the Bridge's user may own it
            } else {
                assertEquals(
                        "SERVERFS_AGENT_LOCK_DIR: the lock directory's active/ must be owned by the lock directory's"
                                + " owner",
                        assertThrows(ConfigurationException.class, () -> ConfigLoader.load(env(), Optional.empty()))
                                .reason());
            }
        } else {
            assertEquals(
                    reason(shape, active),
                    assertThrows(ConfigurationException.class, () -> ConfigLoader.load(env(), Optional.empty()))
                            .reason());
        }
        assertNothingCreated(locks, active);
    }

    /**
     * The real processes of every role, for one shape of the directory and one of {@code active/} (each role reads
     * the configuration as above; four JVMs per shape cost about 7 s, so not all eight shapes run this way).
     */
    @ParameterizedTest(name = "{0} active/: {1}")
    @CsvSource({"other-owned, false", "world-writable, true"})
    void every_role_refuses_with_exit_2_one_line_a_startup_failed_event_and_nothing_created(
            String shape, boolean active) throws Exception {
        Path locks = unsafeLockDirectory(shape, active);
        Map<String, String> embedded = env();
        embedded.put("SERVERFS_AGENT_EMBEDDED", "true");
        embedded.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        Map<String, ServeProcess> roles = new LinkedHashMap<>();
        try {
            // Started side by side: each refuses from its configuration alone.
            roles.put("serve", ServeProcess.start(embedded));
            roles.put("bridge", ServeProcess.startCommand("bridge", env()));
            roles.put("check-config", ServeProcess.startCommand("check-config", embedded));
            roles.put("check-config --bridge", ServeProcess.startCommand("check-config", env(), "--bridge"));
            for (Map.Entry<String, ServeProcess> role : roles.entrySet()) {
                ServeProcess p = role.getValue();
                assertEquals(2, p.waitForExit(WAIT), role.getKey() + ": " + p.stderr());
                List<String> lines = p.stderr().stream()
                        .filter(l -> l.startsWith("ServerFS: "))
                        .toList();
                assertEquals(
                        List.of("ServerFS: configuration error: " + reason(shape, active)),
                        lines,
                        role.getKey() + ": " + p.stderr());
                assertTrue(
                        p.stderr().stream().anyMatch(l -> l.contains("\"event\":\"startup_failed\"")),
                        role.getKey() + ": " + p.stderr());
            }
        } finally {
            for (ServeProcess p : roles.values()) {
                p.close();
            }
        }
        assertNothingCreated(locks, active);
    }
}
