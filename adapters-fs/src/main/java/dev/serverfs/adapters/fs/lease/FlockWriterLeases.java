package dev.serverfs.adapters.fs.lease;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * {@link WriterLeases} on a lock directory shared with other processes and containers (reference §2.8, §6):
 * {@code flock(LOCK_EX|LOCK_NB)} through the native layer {@link Syscalls} (not {@code FileChannel.lock}, which is
 * {@code fcntl}) on {@code <lock_dir>/NN.lock}, opened {@code O_RDWR|O_NOFOLLOW|O_CLOEXEC} for tasks and {@code
 * O_RDONLY} for MCP mutations; recovery guards {@code <lock_dir>/active/NN} written to a temp file, fsynced and
 * published create-only.
 */
public final class FlockWriterLeases implements WriterLeases {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ACTIVE_DIR = "active";

    private final Path lockDir;
    private final Path activeDir;

    public FlockWriterLeases(Path lockDir) {
        this.lockDir = Objects.requireNonNull(lockDir, "lockDir");
        this.activeDir = lockDir.resolve(ACTIVE_DIR);
    }

    /**
     * Prepares the lock directory as the lease owner (the Bridge, or {@code serve} in embedded mode) does before
     * serving: the directory (0700 when created), {@code 01.lock}..{@code 16.lock} (0600) and {@code active/}.
     * Existing entries are kept; a non-regular lock file stays and is refused at acquisition.
     */
    public void prepare() {
        prepare(Optional.empty());
    }

    /**
     * {@link #prepare}, or with {@code sharedGid} the modes of reference §1.2 for an MCP peer of another uid that
     * shares this group: the directory and {@code active/} 0750, the lock files 0640, all of that group (set on
     * existing entries too, so a peer can open the lock files read-only).
     */
    public void prepare(Optional<Integer> sharedGid) {
        String dirMode = sharedGid.isPresent() ? "rwxr-x---" : "rwx------";
        String fileMode = sharedGid.isPresent() ? "rw-r-----" : "rw-------";
        try {
            createDirectory(lockDir, dirMode);
            createDirectory(activeDir, dirMode);
            List<Path> shared = new ArrayList<>(List.of(lockDir, activeDir));
            for (int slot = 1; slot <= 16; slot++) {
                Path lock = lockDir.resolve(slotName(slot) + ".lock");
                shared.add(lock);
                if (!Files.exists(lock, LinkOption.NOFOLLOW_LINKS)) {
                    try {
                        Files.createFile(
                                lock, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(fileMode)));
                    } catch (FileAlreadyExistsException raced) {
                        // another process prepared it first
                    }
                }
            }
            if (sharedGid.isPresent()) {
                for (Path entry : shared) {
                    if (Files.isSymbolicLink(entry)) {
                        continue; // refused at acquisition, never followed
                    }
                    Files.setAttribute(entry, "unix:gid", sharedGid.get(), LinkOption.NOFOLLOW_LINKS);
                    Files.setPosixFilePermissions(
                            entry, PosixFilePermissions.fromString(Files.isDirectory(entry) ? dirMode : fileMode));
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the lock directory cannot be prepared");
        }
    }

    /**
     * Checks, creating nothing, that {@link #prepare} would succeed on {@code lockDir} (start-up validation, issue 10
     * §10): the directory and its {@code active/} are real directories when they exist, and a missing lock directory
     * has an existing parent directory. Otherwise {@code LOCK_PATH_UNSAFE} with a message that names no path.
     */
    public static void verifyPreparable(Path lockDir) {
        for (Path dir : List.of(lockDir, lockDir.resolve(ACTIVE_DIR))) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new ServerFsException(
                        ErrorCode.LOCK_PATH_UNSAFE,
                        "the lock directory must be a real directory, not a symlink or file");
            }
        }
        Path parent = lockDir.toAbsolutePath().getParent();
        if (!Files.exists(lockDir, LinkOption.NOFOLLOW_LINKS) && parent != null && !Files.isDirectory(parent)) {
            throw new ServerFsException(
                    ErrorCode.LOCK_PATH_UNSAFE, "the lock directory cannot be created: its parent is not a directory");
        }
    }

    private static void createDirectory(Path dir, String mode) throws IOException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
    }

    @Override
    public WriterLease acquire(int slot) {
        checkSlot(slot);
        return lock(
                slot,
                OpenFlags.O_RDWR,
                () -> new ServerFsException(
                        ErrorCode.LOCK_PATH_UNSAFE, "lock file for slot " + slotName(slot) + " is unsafe"),
                ErrorCode.LOCK_PATH_UNSAFE);
    }

    @Override
    public WriterLease acquireForMutation(int slot) {
        checkSlot(slot);
        FlockLease lease = lock(slot, OpenFlags.O_RDONLY, () -> unavailable(slot), ErrorCode.AGENT_LOCK_UNAVAILABLE);
        try {
            BasicFileAttributes guard =
                    Files.readAttributes(guardPath(slot), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            lease.close();
            if (guard.isRegularFile()) {
                throw new ServerFsException(
                        ErrorCode.WORKDIR_RECOVERY_REQUIRED, "workdir slot " + slotName(slot) + " needs recovery");
            }
            throw unavailable(slot);
        } catch (NoSuchFileException e) {
            return lease;
        } catch (IOException e) {
            lease.close();
            throw unavailable(slot);
        }
    }

    /**
     * Opens the slot's lock file with {@code accessMode | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK}, refuses anything
     * but a regular file ({@code unsafe}), then takes {@code flock(LOCK_EX|LOCK_NB)}: held elsewhere is
     * {@code WORKDIR_BUSY}, any other failure {@code lockFailure}.
     */
    private FlockLease lock(int slot, int accessMode, Supplier<ServerFsException> unsafe, ErrorCode lockFailure) {
        int fd;
        try {
            fd = Syscalls.openat(
                    OpenFlags.AT_FDCWD,
                    lockPath(slot).toString(),
                    accessMode | OpenFlags.O_NOFOLLOW | OpenFlags.O_CLOEXEC | OpenFlags.O_NONBLOCK,
                    0);
        } catch (ErrnoException e) {
            throw unsafe.get();
        }
        if (!isRegularFile(fd)) {
            Syscalls.close(fd);
            throw unsafe.get();
        }
        try {
            Syscalls.flock(fd, OpenFlags.LOCK_EX | OpenFlags.LOCK_NB);
        } catch (ErrnoException e) {
            Syscalls.close(fd);
            if (e.errno() == Errno.EWOULDBLOCK) {
                throw new ServerFsException(ErrorCode.WORKDIR_BUSY, "workdir slot " + slotName(slot) + " is busy");
            }
            throw new ServerFsException(lockFailure, "lock for slot " + slotName(slot) + " is unavailable");
        }
        return new FlockLease(slot, fd);
    }

    private static boolean isRegularFile(int fd) {
        try {
            return Syscalls.fstat(fd).isRegularFile();
        } catch (ErrnoException e) {
            return false;
        }
    }

    @Override
    public Optional<RecoveryGuard> readGuard(int slot) {
        checkSlot(slot);
        Path guard = guardPath(slot);
        try {
            BasicFileAttributes attrs =
                    Files.readAttributes(guard, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!attrs.isRegularFile() || attrs.size() > 65_536) {
                throw GuardJson.invalid();
            }
            try (FileChannel ch = FileChannel.open(guard, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                // The size of the file opened, not of the name looked at before: replaceGuard may have renamed a
                // longer guard over it in between, and a short buffer would read it truncated ("unreadable").
                long size = ch.size();
                if (size > 65_536) {
                    throw GuardJson.invalid();
                }
                ByteBuffer buf = ByteBuffer.allocate((int) size + 1);
                while (ch.read(buf) > 0 && buf.hasRemaining()) {
                    // read to the end
                }
                buf.flip();
                return Optional.of(
                        GuardJson.parse(StandardCharsets.UTF_8.decode(buf).toString(), slot));
            }
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw GuardJson.invalid();
        }
    }

    @Override
    public ProviderState providerState(ProviderProcess process) {
        try {
            return ProcStat.classify(
                    Optional.of(Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"))),
                    process.startTime());
        } catch (NoSuchFileException e) {
            return ProcStat.classify(Optional.empty(), process.startTime());
        } catch (IOException | RuntimeException e) {
            return ProviderState.UNKNOWN;
        }
    }

    /** Field 22 of {@code /proc/<pid>/stat} for a process this JVM just started (to record in the guard). */
    public static Optional<ProviderProcess> describe(long pid) {
        try {
            return ProcStat.startTime(Files.readString(Path.of("/proc", Long.toString(pid), "stat")))
                    .map(start -> new ProviderProcess(pid, start));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private Path lockPath(int slot) {
        return lockDir.resolve(slotName(slot) + ".lock");
    }

    private Path guardPath(int slot) {
        return activeDir.resolve(slotName(slot));
    }

    private static String slotName(int slot) {
        return String.format("%02d", slot);
    }

    private static void checkSlot(int slot) {
        if (slot < 1 || slot > 16) {
            throw new ServerFsException(ErrorCode.INVALID_WORKDIR_SLOT, "workdir slot must be 1..16");
        }
    }

    private static ServerFsException unavailable(int slot) {
        return new ServerFsException(
                ErrorCode.AGENT_LOCK_UNAVAILABLE, "shared Agent lease for slot " + slotName(slot) + " is unavailable");
    }

    /** A held {@code flock}; guard changes are only allowed while it is held. */
    private final class FlockLease implements WriterLease {
        private final int slot;
        private int fd;

        FlockLease(int slot, int fd) {
            this.slot = slot;
            this.fd = fd;
        }

        @Override
        public int slot() {
            return slot;
        }

        @Override
        public synchronized void publishGuard(RecoveryGuard guard) {
            requireHeld(guard);
            Path temp = writeTemp(guard);
            try {
                // link(2) never replaces an existing name: create-only publication.
                Files.createLink(guardPath(slot), temp);
                fsyncDirectory();
            } catch (FileAlreadyExistsException e) {
                throw new ServerFsException(
                        ErrorCode.WORKDIR_RECOVERY_REQUIRED, "workdir slot " + slotName(slot) + " needs recovery");
            } catch (IOException e) {
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be published");
            } finally {
                deleteQuietly(temp);
            }
        }

        @Override
        public synchronized void replaceGuard(RecoveryGuard guard) {
            requireHeld(guard);
            RecoveryGuard current = readGuard(slot).orElseThrow(GuardJson::invalid);
            if (!current.taskId().equals(guard.taskId())) {
                throw GuardJson.invalid();
            }
            Path temp = writeTemp(guard);
            try {
                Files.move(temp, guardPath(slot), StandardCopyOption.ATOMIC_MOVE);
                fsyncDirectory();
            } catch (IOException e) {
                deleteQuietly(temp);
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be updated");
            }
        }

        @Override
        public synchronized boolean removeGuard(TaskId taskId) {
            requireOpen();
            Optional<RecoveryGuard> current = readGuard(slot);
            if (current.isEmpty() || !current.get().taskId().equals(taskId)) {
                return false;
            }
            try {
                Files.delete(guardPath(slot));
                fsyncDirectory();
                return true;
            } catch (NoSuchFileException e) {
                return false;
            } catch (IOException e) {
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be removed");
            }
        }

        @Override
        public synchronized void close() {
            if (fd >= 0) {
                try {
                    Syscalls.flock(fd, OpenFlags.LOCK_UN);
                } catch (ErrnoException e) {
                    // closing the descriptor below releases the lock anyway
                }
                Syscalls.close(fd);
                fd = -1;
            }
        }

        private void requireHeld(RecoveryGuard guard) {
            requireOpen();
            if (guard.slot() != slot) {
                throw new IllegalArgumentException("guard for another slot");
            }
        }

        private void requireOpen() {
            if (fd < 0) {
                throw new IllegalStateException("lease released");
            }
        }

        private Path writeTemp(RecoveryGuard guard) {
            byte[] bytes = GuardJson.write(guard).getBytes(StandardCharsets.UTF_8);
            byte[] random = new byte[8];
            RANDOM.nextBytes(random);
            Path temp = activeDir.resolve(
                    "." + slotName(slot) + "." + HexFormat.of().formatHex(random) + ".tmp");
            try (FileChannel ch = FileChannel.open(
                    temp,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))) {
                ByteBuffer buf = ByteBuffer.wrap(bytes);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
                return temp;
            } catch (IOException e) {
                deleteQuietly(temp);
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be written");
            }
        }

        private void fsyncDirectory() {
            try (FileChannel dir = FileChannel.open(activeDir, StandardOpenOption.READ)) {
                dir.force(true);
            } catch (IOException e) {
                // the rename itself succeeded; a failed directory fsync only weakens crash durability
            }
        }

        private void deleteQuietly(Path path) {
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                // a leftover temp file is harmless: it never matches a guard name
            }
        }
    }
}
