package dev.serverfs.adapters.fs.lease;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.application.port.out.WriterLeases.WriterLease;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 item 3: another local user (uid 65534; the tests run as root and hand files to it with chown) who
 * swaps {@code NN.lock}, {@code active/} or a guard, or finds the lock directory writable, must never get a second
 * writer admitted beside a running one, nor a slot in recovery opened: every such lease or guard is refused, for the
 * lease owner and for an MCP peer alike.
 */
class LockDirectoryAttackIT {
    private static final int NOBODY = 65534;
    private static final Instant T = Instant.parse("2026-02-03T04:05:06Z");

    @TempDir
    Path dir;

    private Path locks;
    private FlockWriterLeases owner;
    private FlockWriterLeases peer;

    @BeforeEach
    void prepare() {
        assumeTrue(Syscalls.geteuid() == 0, "the attacks need root to create files of another user");
        locks = dir.resolve("locks");
        owner = new FlockWriterLeases(locks);
        owner.prepare();
        peer = FlockWriterLeases.peer(locks);
    }

    private static void assertRefused(ErrorCode code, Executable call) {
        assertEquals(code, assertThrows(ServerFsException.class, call).code());
    }

    private static RecoveryGuard guard(int slot) {
        return new RecoveryGuard(
                slot,
                TaskId.fromHex("c".repeat(24)),
                "fake",
                "proj",
                Optional.empty(),
                NativeIds.NONE,
                Optional.empty(),
                T,
                T);
    }

    private Path foreignFile(String name) throws Exception {
        Path file = Files.createFile(dir.resolve(name));
        Files.setAttribute(file, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
        return file;
    }

    private void leaveRecoveryState(int slot) {
        // A task published its guard and its Bridge died: the flock is free, the guard stays.
        try (WriterLease lease = owner.acquire(slot)) {
            lease.publishGuard(guard(slot));
        }
    }

    @Test
    void a_foreign_lock_file_swapped_in_while_a_task_holds_the_lease_admits_no_second_writer() throws Exception {
        try (WriterLease _ = owner.acquire(1)) {
            Path lock = locks.resolve("01.lock");
            Files.delete(lock);
            Files.move(foreignFile("01.lock"), lock);
            for (WriterLeases leases : List.of(owner, peer)) {
                assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> leases.acquire(1));
                assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(1));
            }
        }
    }

    @Test
    void a_lock_file_swapped_for_a_symlink_while_a_task_holds_the_lease_admits_no_second_writer() throws Exception {
        try (WriterLease _ = owner.acquire(2)) {
            Path lock = locks.resolve("02.lock");
            Files.delete(lock);
            Files.createSymbolicLink(lock, Files.createFile(dir.resolve("elsewhere.lock")));
            for (WriterLeases leases : List.of(owner, peer)) {
                assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> leases.acquire(2));
                assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(2));
            }
        }
    }

    @Test
    void active_swapped_for_a_symlink_to_an_empty_directory_keeps_a_slot_in_recovery_closed() throws Exception {
        leaveRecoveryState(3);
        Path active = locks.resolve("active");
        Files.move(active, dir.resolve("active.old"));
        Files.createSymbolicLink(active, Files.createDirectory(dir.resolve("empty")));
        for (WriterLeases leases : List.of(owner, peer)) {
            assertRefused(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(3));
            assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(3));
        }
    }

    @Test
    void active_swapped_for_a_foreign_directory_keeps_a_slot_in_recovery_closed() throws Exception {
        leaveRecoveryState(4);
        Path active = locks.resolve("active");
        Files.move(active, dir.resolve("active.old"));
        Files.createDirectory(
                active, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        Files.setAttribute(active, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
        for (WriterLeases leases : List.of(owner, peer)) {
            assertRefused(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(4));
            assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(4));
        }
        try (WriterLease lease = owner.acquire(5)) {
            assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> lease.publishGuard(guard(5)));
        }
        try (var planted = Files.list(active)) {
            assertEquals(0, planted.count(), "no guard written into the foreign directory");
        }
    }

    @Test
    void a_foreign_guard_is_not_trusted() throws Exception {
        leaveRecoveryState(6);
        Path guard = locks.resolve("active/06");
        // Same bytes, another owner: its content (a provider pid, a task id) could have been forged.
        Files.setAttribute(guard, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
        for (WriterLeases leases : List.of(owner, peer)) {
            assertRefused(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(6));
        }
        Files.setAttribute(guard, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(guard, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertRefused(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> owner.readGuard(6));
    }

    @Test
    void a_lock_directory_turned_world_writable_grants_no_lease() throws Exception {
        Files.setPosixFilePermissions(locks, PosixFilePermissions.fromString("rwxrwxrwx"));
        for (WriterLeases leases : List.of(owner, peer)) {
            assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> leases.acquire(7));
            assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> leases.acquireForMutation(7));
            assertRefused(ErrorCode.WORKDIR_RECOVERY_REQUIRED, () -> leases.readGuard(7));
        }
        Files.setPosixFilePermissions(locks, PosixFilePermissions.fromString("rwx------"));
        owner.acquire(7).close();
    }

    @Test
    void the_owner_refuses_a_lock_directory_of_another_user_and_a_peer_trusts_only_its_owners_files() throws Exception {
        Files.setAttribute(locks, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
        assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> owner.acquire(8));
        // A peer trusts the directory's owner (the Bridge's user): files of anyone else in it are refused.
        assertRefused(ErrorCode.AGENT_LOCK_UNAVAILABLE, () -> peer.acquireForMutation(8));
        Files.setAttribute(locks, "unix:uid", 0, LinkOption.NOFOLLOW_LINKS);
        peer.acquireForMutation(8).close(); // its own files in its own directory: granted
    }

    @Test
    void start_up_refuses_each_unsafe_shape_of_the_lock_directory_and_active() throws Exception {
        Path fresh = dir.resolve("fresh");
        FlockWriterLeases.verifyPreparable(fresh); // missing: prepare would create it
        for (String shape : List.of("world-writable", "group-writable", "foreign", "symlink")) {
            for (String which : List.of("", "active")) {
                Path lockDir = dir.resolve("shape-" + shape + "-" + which.length());
                Path target = which.isEmpty() ? lockDir : lockDir.resolve(which);
                Files.createDirectories(lockDir);
                Files.setPosixFilePermissions(lockDir, PosixFilePermissions.fromString("rwx------"));
                switch (shape) {
                    case "world-writable" -> {
                        Files.createDirectories(target);
                        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwxrwx"));
                    }
                    case "group-writable" -> {
                        Files.createDirectories(target);
                        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxrwx---"));
                    }
                    case "foreign" -> {
                        Files.createDirectories(target);
                        Files.setAttribute(target, "unix:uid", NOBODY, LinkOption.NOFOLLOW_LINKS);
                    }
                    default -> {
                        Path real = Files.createDirectories(dir.resolve("real-" + which.length() + "-" + shape));
                        Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rwx------"));
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, real);
                    }
                }
                String label = shape + (which.isEmpty() ? " lock directory" : " active/");
                assertRefused(ErrorCode.LOCK_PATH_UNSAFE, () -> FlockWriterLeases.verifyPreparable(lockDir));
                FlockWriterLeases leases = new FlockWriterLeases(lockDir);
                assertRefused(ErrorCode.LOCK_PATH_UNSAFE, leases::prepare);
                assertTrue(Files.notExists(lockDir.resolve("01.lock"), LinkOption.NOFOLLOW_LINKS), label);
            }
        }
    }
}
