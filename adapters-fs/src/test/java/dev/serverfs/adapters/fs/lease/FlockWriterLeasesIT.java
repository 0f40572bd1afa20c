package dev.serverfs.adapters.fs.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** Real lock files, a real second process holding {@code flock}, real {@code /proc}. */
class FlockWriterLeasesIT {
    private static final Instant T = Instant.parse("2026-02-03T04:05:06.123456Z");

    @TempDir
    Path dir;

    private Path locks;
    private FlockWriterLeases leases;

    @BeforeEach
    void prepare() {
        locks = dir.resolve("locks");
        leases = new FlockWriterLeases(locks);
        leases.prepare();
    }

    private static void assertCode(ErrorCode code, Executable call) {
        assertEquals(code, assertThrows(ServerFsException.class, call).code());
    }

    private static RecoveryGuard guard(int slot, String hex) {
        return new RecoveryGuard(
                slot,
                TaskId.fromHex(hex.repeat(24)),
                "fake",
                "docs",
                Optional.of(new CorrelationId("conv \"1\"")),
                NativeIds.NONE,
                Optional.empty(),
                T,
                T);
    }

    @Test
    void prepare_creates_sixteen_private_lock_files_and_the_active_directory() throws Exception {
        for (int slot = 1; slot <= 16; slot++) {
            Path lock = locks.resolve(String.format("%02d.lock", slot));
            assertTrue(Files.isRegularFile(lock));
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(lock)));
        }
        assertTrue(Files.isDirectory(locks.resolve("active")));
        leases.prepare(); // repeatable
    }

    @Test
    void a_lock_held_by_another_process_makes_the_slot_busy() throws Exception {
        assumeTrue(ForeignFlock.available(), ForeignFlock.UNAVAILABLE);
        try (ForeignFlock holder = ForeignFlock.hold(locks.resolve("07.lock"))) {
            assertCode(ErrorCode.WORKDIR_BUSY, () -> leases.acquire(7));
            assertCode(ErrorCode.WORKDIR_BUSY, () -> leases.acquireForMutation(7));
            assertTrue(holder.release());
            leases.acquire(7).close();
        }
    }

    @Test
    void our_lock_is_a_real_flock_seen_by_another_process() throws Exception {
        assumeTrue(ForeignFlock.available(), ForeignFlock.UNAVAILABLE);
        try (WriterLease _ = leases.acquire(9)) {
            assertEquals(1, ForeignFlock.probe(locks.resolve("09.lock")), "flock(1) must find the slot locked");
        }
        assertEquals(0, ForeignFlock.probe(locks.resolve("09.lock")));
    }

    @Test
    void non_regular_lock_paths_are_unsafe() throws Exception {
        Path target = dir.resolve("elsewhere.lock");
        Files.createFile(target);
        Files.delete(locks.resolve("01.lock"));
        Files.createSymbolicLink(locks.resolve("01.lock"), target);
        Files.delete(locks.resolve("02.lock"));
        Files.createDirectory(locks.resolve("02.lock"));
        Files.delete(locks.resolve("03.lock"));
        Process mkfifo = new ProcessBuilder("mkfifo", locks.resolve("03.lock").toString()).start();
        assertTrue(mkfifo.waitFor(10, TimeUnit.SECONDS));
        Files.delete(locks.resolve("04.lock"));

        for (int slot : List.of(1, 2, 3, 4)) {
            assertCode(ErrorCode.LOCK_PATH_UNSAFE, () -> leases.acquire(slot));
            assertCode(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(slot));
        }
    }

    @Test
    void guard_file_is_sorted_compact_json_with_provider_fields_and_private_mode() throws Exception {
        RecoveryGuard g = guard(3, "a").withProvider(new ProviderProcess(4321, 99), T);
        try (WriterLease lease = leases.acquire(3)) {
            lease.publishGuard(g);
        }
        Path file = locks.resolve("active/03");
        String json = Files.readString(file);
        assertEquals(
                "{\"correlation_id\":\"conv \\\"1\\\"\",\"created_at\":\"2026-02-03T04:05:06.123456Z\","
                        + "\"native_session_id\":null,\"native_turn_id\":null,\"provider_pid\":4321,"
                        + "\"provider_start_time\":99,\"runtime\":\"fake\",\"schema_version\":1,\"slot\":3,"
                        + "\"task_id\":\"agt_aaaaaaaaaaaaaaaaaaaaaaaa\",\"updated_at\":\"2026-02-03T04:05:06.123456Z\","
                        + "\"workdir_alias\":\"docs\"}\n",
                json);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(Optional.of(g), leases.readGuard(3));
        try (var entries = Files.list(locks.resolve("active"))) {
            assertEquals(List.of(file), entries.toList(), "no temp file left behind");
        }
    }

    @Test
    void unreadable_or_foreign_guards_fail_closed() throws Exception {
        Files.writeString(locks.resolve("active/05"), "{not json");
        assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(5));
        assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.acquireForMutation(5));

        // A valid guard for slot 6 found under the name of slot 7 is not trusted.
        Files.writeString(locks.resolve("active/07"), Files.readString(writeGuard(6)));
        assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(7));

        Files.createSymbolicLink(locks.resolve("active/08"), locks.resolve("active/06"));
        assertCode(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(8));
        assertCode(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(8));
    }

    private Path writeGuard(int slot) {
        try (WriterLease lease = leases.acquire(slot)) {
            lease.publishGuard(guard(slot, "b"));
        }
        return locks.resolve(String.format("active/%02d", slot));
    }

    @Test
    void provider_state_comes_from_proc_with_pid_reuse_detection() throws Exception {
        long self = ProcessHandle.current().pid();
        ProviderProcess me = FlockWriterLeases.describe(self).orElseThrow();
        assertEquals(ProviderState.ACTIVE, leases.providerState(me));
        assertEquals(ProviderState.STOPPED, leases.providerState(new ProviderProcess(self, me.startTime() + 1)));

        Process child = new ProcessBuilder("sh", "-c", "exec cat").start();
        ProviderProcess recorded = FlockWriterLeases.describe(child.pid()).orElseThrow();
        assertEquals(ProviderState.ACTIVE, leases.providerState(recorded));
        child.getOutputStream().close();
        assertTrue(child.waitFor(10, TimeUnit.SECONDS));
        assertEquals(ProviderState.STOPPED, leases.providerState(recorded));
    }
}
