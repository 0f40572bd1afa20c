package dev.serverfs.adapters.fs.lease;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Fd;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.WriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@link WriterLeases} on a lock directory shared with other processes and containers (reference §2.8, §6):
 * {@code flock(LOCK_EX|LOCK_NB)} through the native layer {@link Syscalls} (not {@code FileChannel.lock}, which is
 * {@code fcntl}) on {@code <lock_dir>/NN.lock}, opened {@code O_RDWR} for tasks and {@code O_RDONLY} for MCP
 * mutations; recovery guards {@code <lock_dir>/active/NN} written to a temp file, fsynced and published
 * create-only. Every operation opens the lock directory and {@code active/} without following links and proves
 * them (real directories of the lease owner, writable by it only), then opens its entries relative to them, also
 * without following links, and proves each a regular file of the same owner writable by it only: a lease or guard
 * that cannot be proven is refused, never granted (issue 24 item 3).
 */
public final class FlockWriterLeases implements WriterLeases {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String ACTIVE_DIR = "active";
    private static final Pattern GUARD_NAME = Pattern.compile("[0-9]{2}");
    private static final int GROUP_OR_OTHER_WRITE = 0022;
    private static final int MAX_GUARD_BYTES = 65_536;

    private final Path lockDir;
    /** The uid that must own the lock tree; empty for an MCP peer, which trusts the lock directory's owner. */
    private final OptionalInt owner;

    /** The leases of the lock directory's owner (the Bridge, or {@code serve} hosting the Agent): this uid. */
    public FlockWriterLeases(Path lockDir) {
        this(lockDir, OptionalInt.of(Syscalls.geteuid()));
    }

    private FlockWriterLeases(Path lockDir, OptionalInt owner) {
        this.lockDir = Objects.requireNonNull(lockDir, "lockDir");
        this.owner = owner;
    }

    /**
     * The leases an MCP peer takes in a lock directory the Bridge prepared, possibly as another uid sharing its
     * group (reference §1.2): whoever owns the directory, every entry must be that owner's and nobody else may
     * write the directory or its entries.
     */
    public static FlockWriterLeases peer(Path lockDir) {
        return new FlockWriterLeases(lockDir, OptionalInt.empty());
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
     * existing entries too, so a peer can open the lock files read-only). An existing directory or {@code active/}
     * that {@link #verifyPreparable} refuses is {@code LOCK_PATH_UNSAFE}, and nothing is created in it.
     */
    public void prepare(Optional<Integer> sharedGid) {
        String dirMode = sharedGid.isPresent() ? "rwxr-x---" : "rwx------";
        String fileMode = sharedGid.isPresent() ? "rw-r-----" : "rw-------";
        Path activeDir = lockDir.resolve(ACTIVE_DIR);
        try {
            createDirectory(lockDir, dirMode);
            requireSafeDirectory(lockDir, Syscalls.geteuid(), "lock directory");
            createDirectory(activeDir, dirMode);
            requireSafeDirectory(activeDir, Syscalls.geteuid(), "lock directory's active/");
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
     * §10, issue 24 item 3): the directory and its {@code active/}, where they exist, are real directories (not
     * symlinks) owned by this process's user and writable by it only, as the socket directory must be; a missing
     * lock directory has an existing parent directory. Otherwise {@code LOCK_PATH_UNSAFE} with a message that names
     * no path.
     */
    public static void verifyPreparable(Path lockDir) {
        int uid = Syscalls.geteuid();
        requireSafeDirectory(lockDir, uid, "lock directory");
        requireSafeDirectory(lockDir.resolve(ACTIVE_DIR), uid, "lock directory's active/");
        Path parent = lockDir.toAbsolutePath().getParent();
        if (!Files.exists(lockDir, LinkOption.NOFOLLOW_LINKS) && parent != null && !Files.isDirectory(parent)) {
            throw new ServerFsException(
                    ErrorCode.LOCK_PATH_UNSAFE, "the lock directory cannot be created: its parent is not a directory");
        }
    }

    /**
     * Checks, creating nothing, the lock directory an MCP peer will take its leases in ({@code serve} without the
     * embedded Agent, at start-up): where it and its {@code active/} exist, real directories that nobody but their
     * owner (whoever it is: the Bridge's user) may write, {@code active/} of the same owner. A missing one passes:
     * the Bridge prepares it, and until then writes to Agent workdirs are refused ({@code AGENT_LOCK_UNAVAILABLE}).
     * Otherwise {@code LOCK_PATH_UNSAFE}, which no later Bridge could mend.
     */
    public static void verifyPeerUsable(Path lockDir) {
        OptionalInt owner = safeDirectoryOwner(lockDir, OptionalInt.empty(), "", "lock directory");
        if (owner.isPresent()) {
            safeDirectoryOwner(
                    lockDir.resolve(ACTIVE_DIR), owner, "the lock directory's owner", "lock directory's active/");
        }
    }

    /** When {@code dir} exists: a real directory owned by {@code uid} with no group or other write bit. */
    private static void requireSafeDirectory(Path dir, int uid, String what) {
        safeDirectoryOwner(dir, OptionalInt.of(uid), "the user running ServerFS", what);
    }

    /**
     * When {@code dir} exists: its owner, after checking it is a real directory with no group or other write bit,
     * owned by {@code uid} ({@code owner} says whose that is) when one is required; empty when it does not exist.
     */
    private static OptionalInt safeDirectoryOwner(Path dir, OptionalInt uid, String owner, String what) {
        FileStat st;
        try {
            st = Syscalls.statx(OpenFlags.AT_FDCWD, dir.toString(), OpenFlags.AT_SYMLINK_NOFOLLOW);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.ENOENT) {
                return OptionalInt.empty();
            }
            throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the " + what + " cannot be inspected");
        }
        if (!st.isDirectory()) {
            throw new ServerFsException(
                    ErrorCode.LOCK_PATH_UNSAFE, "the " + what + " must be a real directory, not a symlink or file");
        }
        if (uid.isPresent() && st.uid() != uid.getAsInt()) {
            throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the " + what + " must be owned by " + owner);
        }
        if ((st.mode() & GROUP_OR_OTHER_WRITE) != 0) {
            throw new ServerFsException(
                    ErrorCode.LOCK_PATH_UNSAFE,
                    "the " + what + " must be writable by its owner only (mode 0700, or 0750 with a shared group)");
        }
        return OptionalInt.of(st.uid());
    }

    private static void createDirectory(Path dir, String mode) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return; // checked by the caller, whatever it is
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(mode)));
        } catch (FileAlreadyExistsException raced) {
            // another process prepared it first
        }
    }

    @Override
    public WriterLease acquire(int slot) {
        checkSlot(slot);
        Supplier<ServerFsException> unsafe = () -> new ServerFsException(
                ErrorCode.LOCK_PATH_UNSAFE, "lock file for slot " + slotName(slot) + " is unsafe");
        try (Dir dir = openLockDir()) {
            return lock(dir, slot, OpenFlags.O_RDWR, unsafe, ErrorCode.LOCK_PATH_UNSAFE);
        } catch (Unproven e) {
            throw unsafe.get();
        }
    }

    @Override
    public WriterLease acquireForMutation(int slot) {
        checkSlot(slot);
        try (Dir dir = openLockDir()) {
            FlockLease lease =
                    lock(dir, slot, OpenFlags.O_RDONLY, () -> unavailable(slot), ErrorCode.AGENT_LOCK_UNAVAILABLE);
            // Reference §2.8: a regular guard is the recovery state; anything else that is not a proven absence is
            // an unavailable lease.
            try (Dir active = dir.child(ACTIVE_DIR)) {
                FileStat guard = Syscalls.statx(active.fd(), guardName(slot), OpenFlags.AT_SYMLINK_NOFOLLOW);
                lease.close();
                if (guard.isRegularFile()) {
                    throw new ServerFsException(
                            ErrorCode.WORKDIR_RECOVERY_REQUIRED, "workdir slot " + slotName(slot) + " needs recovery");
                }
                throw unavailable(slot);
            } catch (ErrnoException e) {
                if (e.errno() == Errno.ENOENT) {
                    return lease;
                }
                lease.close();
                throw unavailable(slot);
            } catch (Unproven e) {
                lease.close();
                throw unavailable(slot);
            }
        } catch (Unproven e) {
            throw unavailable(slot);
        }
    }

    /**
     * Opens the slot's lock file beneath {@code dir} with {@code accessMode | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK},
     * refuses anything but a regular file of the directory's owner writable by it only ({@code unsafe}), then takes
     * {@code flock(LOCK_EX|LOCK_NB)}: held elsewhere is {@code WORKDIR_BUSY}, any other failure {@code lockFailure}.
     */
    private FlockLease lock(
            Dir dir, int slot, int accessMode, Supplier<ServerFsException> unsafe, ErrorCode lockFailure) {
        int fd;
        try {
            fd = Syscalls.openat(
                    dir.fd(),
                    slotName(slot) + ".lock",
                    accessMode | OpenFlags.O_NOFOLLOW | OpenFlags.O_CLOEXEC | OpenFlags.O_NONBLOCK,
                    0);
        } catch (ErrnoException e) {
            throw unsafe.get();
        }
        if (!dir.owns(fd)) {
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

    /**
     * Recovery guards present in {@code active/} now, whoever wrote them: a guard outlives its task only when a run
     * ended without proof that its provider stopped, and then blocks the workdir's writers until recovery.
     */
    public long guards() {
        try (var names = Files.list(lockDir.resolve(ACTIVE_DIR))) {
            return names.filter(
                            p -> GUARD_NAME.matcher(p.getFileName().toString()).matches())
                    .count();
        } catch (IOException e) {
            throw new UncheckedIOException("the lock directory's active/ could not be listed", e);
        }
    }

    @Override
    public Optional<RecoveryGuard> readGuard(int slot) {
        checkSlot(slot);
        try (Dir dir = openLockDir();
                Dir active = dir.child(ACTIVE_DIR)) {
            return readGuard(active, slot);
        } catch (Unproven e) {
            throw GuardJson.invalid();
        }
    }

    /** The guard of {@code slot} in the held {@code active/}; anything but a proven guard or absence is invalid. */
    private static Optional<RecoveryGuard> readGuard(Dir active, int slot) {
        int fd;
        try {
            fd = Syscalls.openat(
                    active.fd(),
                    guardName(slot),
                    OpenFlags.O_RDONLY | OpenFlags.O_NOFOLLOW | OpenFlags.O_CLOEXEC | OpenFlags.O_NONBLOCK,
                    0);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.ENOENT) {
                return Optional.empty();
            }
            throw GuardJson.invalid();
        }
        try (Fd file = new Fd(fd);
                Arena arena = Arena.ofConfined()) {
            if (!active.owns(fd)) {
                throw GuardJson.invalid();
            }
            // Read to the end of the file opened (replaceGuard may rename a longer guard over the name at any
            // time): one byte more than the limit tells an oversized guard.
            MemorySegment buf = arena.allocate(MAX_GUARD_BYTES + 1);
            long size = 0;
            long n;
            while (size < buf.byteSize()
                    && (n = Syscalls.read(file.value(), buf.asSlice(size), buf.byteSize() - size)) > 0) {
                size += n;
            }
            if (size > MAX_GUARD_BYTES) {
                throw GuardJson.invalid();
            }
            byte[] bytes = buf.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE);
            return Optional.of(GuardJson.parse(new String(bytes, StandardCharsets.UTF_8), slot));
        } catch (ErrnoException e) {
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

    /** The lock directory, held for one operation: opened without following a link and proven. */
    private Dir openLockDir() throws Unproven {
        return Dir.open(OpenFlags.AT_FDCWD, lockDir.toString(), owner);
    }

    private static String guardName(int slot) {
        return slotName(slot);
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

    /** A directory of the lock tree that could not be proven safe (or is missing): nothing in it is trusted. */
    private static final class Unproven extends Exception {
        Unproven() {
            super(null, null, false, false);
        }
    }

    /**
     * A held directory of the lock tree: a real directory (opened {@code O_NOFOLLOW}) owned by {@code owner} with no
     * group or other write bit; every entry opened beneath it must be a regular file of the same owner, writable by
     * it only.
     */
    private record Dir(Fd held, int owner) implements AutoCloseable {
        static Dir open(int at, String name, OptionalInt requiredOwner) throws Unproven {
            int fd;
            try {
                fd = Syscalls.openat(
                        at,
                        name,
                        OpenFlags.O_RDONLY | OpenFlags.O_DIRECTORY | OpenFlags.O_NOFOLLOW | OpenFlags.O_CLOEXEC,
                        0);
            } catch (ErrnoException e) {
                throw new Unproven();
            }
            Fd held = new Fd(fd);
            try {
                FileStat st = Syscalls.fstat(fd);
                if (st.isDirectory()
                        && (requiredOwner.isEmpty() || st.uid() == requiredOwner.getAsInt())
                        && (st.mode() & GROUP_OR_OTHER_WRITE) == 0) {
                    return new Dir(held, st.uid());
                }
            } catch (ErrnoException e) {
                // unproven below
            }
            held.close();
            throw new Unproven();
        }

        int fd() {
            return held.value();
        }

        /** {@code name} beneath this directory, proven with the same owner. */
        Dir child(String name) throws Unproven {
            return open(fd(), name, OptionalInt.of(owner));
        }

        /** Whether the open file {@code fd} is a regular file of this directory's owner that nobody else may write. */
        boolean owns(int fd) {
            try {
                FileStat st = Syscalls.fstat(fd);
                return st.isRegularFile() && st.uid() == owner && (st.mode() & GROUP_OR_OTHER_WRITE) == 0;
            } catch (ErrnoException e) {
                return false;
            }
        }

        @Override
        public void close() {
            held.close();
        }
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
            try (Dir dir = openLockDir();
                    Dir active = dir.child(ACTIVE_DIR)) {
                String temp = writeTemp(active, guard);
                try {
                    // link(2) never replaces an existing name: create-only publication.
                    Syscalls.linkat(active.fd(), temp, active.fd(), guardName(slot));
                    fsync(active);
                } catch (ErrnoException e) {
                    if (e.errno() == Errno.EEXIST) {
                        throw new ServerFsException(
                                ErrorCode.WORKDIR_RECOVERY_REQUIRED,
                                "workdir slot " + slotName(slot) + " needs recovery");
                    }
                    throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be published");
                } finally {
                    deleteQuietly(active, temp);
                }
            } catch (Unproven e) {
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be published");
            }
        }

        @Override
        public synchronized void replaceGuard(RecoveryGuard guard) {
            requireHeld(guard);
            try (Dir dir = openLockDir();
                    Dir active = dir.child(ACTIVE_DIR)) {
                RecoveryGuard current = readGuard(active, slot).orElseThrow(GuardJson::invalid);
                if (!current.taskId().equals(guard.taskId())) {
                    throw GuardJson.invalid();
                }
                String temp = writeTemp(active, guard);
                try {
                    Syscalls.renameat(active.fd(), temp, active.fd(), guardName(slot));
                    fsync(active);
                } catch (ErrnoException e) {
                    deleteQuietly(active, temp);
                    throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be updated");
                }
            } catch (Unproven e) {
                throw GuardJson.invalid();
            }
        }

        @Override
        public synchronized boolean removeGuard(TaskId taskId) {
            requireOpen();
            try (Dir dir = openLockDir();
                    Dir active = dir.child(ACTIVE_DIR)) {
                Optional<RecoveryGuard> current = readGuard(active, slot);
                if (current.isEmpty() || !current.get().taskId().equals(taskId)) {
                    return false;
                }
                Syscalls.unlinkat(active.fd(), guardName(slot), 0);
                fsync(active);
                return true;
            } catch (ErrnoException e) {
                if (e.errno() == Errno.ENOENT) {
                    return false;
                }
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be removed");
            } catch (Unproven e) {
                throw GuardJson.invalid();
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

        /** The guard written, fsynced and closed under a fresh temp name in {@code active}; returns that name. */
        private String writeTemp(Dir active, RecoveryGuard guard) {
            byte[] bytes = GuardJson.write(guard).getBytes(StandardCharsets.UTF_8);
            byte[] random = new byte[8];
            RANDOM.nextBytes(random);
            String temp = "." + slotName(slot) + "." + HexFormat.of().formatHex(random) + ".tmp";
            int tempFd;
            try {
                tempFd = Syscalls.openat(
                        active.fd(),
                        temp,
                        OpenFlags.O_WRONLY
                                | OpenFlags.O_CREAT
                                | OpenFlags.O_EXCL
                                | OpenFlags.O_NOFOLLOW
                                | OpenFlags.O_CLOEXEC,
                        0600);
            } catch (ErrnoException e) {
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be written");
            }
            try (Fd file = new Fd(tempFd);
                    Arena arena = Arena.ofConfined()) {
                MemorySegment buf = arena.allocate(Math.max(1, bytes.length));
                MemorySegment.copy(bytes, 0, buf, ValueLayout.JAVA_BYTE, 0, bytes.length);
                Syscalls.writeFully(file.value(), buf, bytes.length);
                Syscalls.fsync(file.value());
                return temp;
            } catch (ErrnoException e) {
                deleteQuietly(active, temp);
                throw new ServerFsException(ErrorCode.LOCK_PATH_UNSAFE, "the recovery guard cannot be written");
            }
        }

        private static void fsync(Dir active) {
            try {
                Syscalls.fsync(active.fd());
            } catch (ErrnoException e) {
                // the rename itself succeeded; a failed directory fsync only weakens crash durability
            }
        }

        private static void deleteQuietly(Dir active, String name) {
            try {
                Syscalls.unlinkat(active.fd(), name, 0);
            } catch (ErrnoException e) {
                // a leftover temp file is harmless: it never matches a guard name
            }
        }
    }
}
