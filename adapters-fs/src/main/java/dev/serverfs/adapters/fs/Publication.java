package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_REMOVEDIR;
import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CLOEXEC;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_CREAT;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_DIRECTORY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_EXCL;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NOFOLLOW;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_NONBLOCK;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_RDONLY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.O_WRONLY;
import static dev.serverfs.adapters.fs.linux.OpenFlags.RENAME_EXCHANGE;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutation primitives of contract reference §2.8-§2.13 on descriptors: everything acts on the final name
 * through its parent directory's descriptor. New content is written to {@code .serverfs-tmp-<16 hex>} in the same
 * directory ({@code O_WRONLY|O_CREAT|O_EXCL|O_NOFOLLOW}, mode {@code 0666 & umask} for a create; {@code 0600} for a
 * replacement, whose content may be that of a private file until the original's mode is copied) and fsynced; {@code linkat}
 * publishes a create (never overwrites), {@code renameat2(RENAME_EXCHANGE)} a replacement (a plain {@code
 * renameat} where the file system cannot exchange). The temp name is removed on every path that did not commit, and
 * holds the replaced file after an exchange until it is removed; after a crash it may remain, hidden from every
 * tool by {@code RESERVED_PATH}.
 */
final class Publication {

    private static final Logger LOG = LoggerFactory.getLogger(Publication.class);

    static final String TEMP_PREFIX = ".serverfs-tmp-";
    private static final int TEMP_ATTEMPTS = 8;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A new file's mode before the umask, as {@code open(2)} creates it. */
    private static final int CREATE_MODE = 0666;
    /**
     * A replacement's temp file holds the edited content of a file whose mode may be private (0600) until {@link
     * Metadata#copy} gives it the original's mode: owner-only until then, so no other local user can open it.
     */
    private static final int REPLACE_MODE = 0600;

    private final Confinement confinement;
    private final Supplier<String> tempNames;
    /** Runs between a replacement's revision check and its publication: a test's seam for a racing writer. */
    private final Runnable beforeReplace;
    /** Gets a replacement's temp name once its content is written, before any metadata is copied: a test's seam. */
    private final Consumer<String> afterTempWritten;

    Publication(Confinement confinement) {
        this(confinement, Publication::randomTempName);
    }

    Publication(Confinement confinement, Supplier<String> tempNames) {
        this(confinement, tempNames, () -> {});
    }

    Publication(Confinement confinement, Supplier<String> tempNames, Runnable beforeReplace) {
        this(confinement, tempNames, beforeReplace, name -> {});
    }

    Publication(
            Confinement confinement,
            Supplier<String> tempNames,
            Runnable beforeReplace,
            Consumer<String> afterTempWritten) {
        this.confinement = confinement;
        this.tempNames = tempNames;
        this.beforeReplace = beforeReplace;
        this.afterTempWritten = afterTempWritten;
    }

    static String randomTempName() {
        byte[] bytes = new byte[8];
        RANDOM.nextBytes(bytes);
        return TEMP_PREFIX + HexFormat.of().formatHex(bytes);
    }

    /** The parent directory, opened for reading (a directory fsync needs a real descriptor, not {@code O_PATH}). */
    int openParent(int root, WorkdirPath path, String label, boolean creating) {
        try {
            return confinement.open(root, path.parent(), O_RDONLY | O_DIRECTORY, label);
        } catch (ServerFsException e) {
            if (creating && e.code() == ErrorCode.PATH_NOT_FOUND) {
                throw new ServerFsException(ErrorCode.PARENT_NOT_FOUND, label, "parent directory not found");
            }
            throw e;
        }
    }

    FileStat createFile(int root, WorkdirPath path, byte[] content, String label) {
        int parent = openParent(root, path, label, true);
        try {
            requireAbsent(parent, path.name(), label);
            Temp temp = Temp.create(parent, tempNames, CREATE_MODE, label);
            try {
                temp.write(content);
                temp.fsync();
                try {
                    Syscalls.linkat(parent, temp.name, parent, path.name());
                } catch (ErrnoException e) {
                    throw e.errno() == Errno.EEXIST ? exists(label) : mutationFailure(e.errno(), label);
                }
                temp.committed = true;
                try {
                    Syscalls.unlinkat(parent, temp.name, 0);
                } catch (ErrnoException e) {
                    LOG.atWarn()
                            .setMessage("temp_unlink_failed")
                            .addKeyValue("errno", e.errno())
                            .log();
                }
                fsyncDirectory(parent);
                return temp.stat(label);
            } finally {
                temp.close();
            }
        } finally {
            Syscalls.close(parent);
        }
    }

    /**
     * Replaces {@code name} in {@code parent} with {@code content}, copying metadata from {@code original} first;
     * order write → owner → mode → xattrs → fsync → revision recheck → rename, so a later step can never clear
     * setuid/setgid (reference §2.8).
     */
    FileStat replace(int parent, String name, int original, byte[] content, Revision expectedRevision, String label) {
        FileStat source = fstat(original, label);
        Temp temp = Temp.create(parent, tempNames, REPLACE_MODE, label);
        try {
            temp.write(content);
            afterTempWritten.accept(temp.name);
            Metadata.copy(original, source, temp.fd, label);
            temp.fsync();
            FileStat current;
            try {
                current = Syscalls.statx(parent, name, AT_SYMLINK_NOFOLLOW);
            } catch (ErrnoException e) {
                throw conflict(label);
            }
            if (!current.revision().equals(expectedRevision)) {
                throw conflict(label);
            }
            beforeReplace.run();
            if (!exchange(parent, temp, name, current, label)) {
                try {
                    Syscalls.renameat(parent, temp.name, parent, name);
                } catch (ErrnoException e) {
                    throw mutationFailure(e.errno(), label);
                }
                temp.committed = true;
            }
            fsyncDirectory(parent);
            return temp.stat(label);
        } finally {
            temp.close();
        }
    }

    /**
     * Publishes {@code temp} at {@code name} by exchanging the two names atomically, then checks that what it
     * displaced is the file that was checked ({@code checked}'s device and inode): a writer who put something else at
     * the name after the check (a symlink to a file outside, a directory) gets it back by a second exchange, and the
     * replacement is a {@code REVISION_CONFLICT}; a plain rename would have replaced it. The displaced file is left at
     * the temp name, which {@link Temp#close} removes. False where the file system or C library cannot exchange
     * ({@code EINVAL}, {@code ENOSYS}): the caller renames over the name instead, as before.
     */
    private static boolean exchange(int parent, Temp temp, String name, FileStat checked, String label) {
        try {
            Syscalls.renameat2(parent, temp.name, parent, name, RENAME_EXCHANGE);
        } catch (ErrnoException e) {
            if (e.errno() == Errno.EINVAL || e.errno() == Errno.ENOSYS) {
                return false;
            }
            throw e.errno() == Errno.ENOENT ? conflict(label) : mutationFailure(e.errno(), label);
        }
        FileStat displaced;
        try {
            displaced = Syscalls.statx(parent, temp.name, AT_SYMLINK_NOFOLLOW);
        } catch (ErrnoException e) {
            displaced = null;
        }
        if (displaced != null && displaced.dev() == checked.dev() && displaced.ino() == checked.ino()) {
            return true;
        }
        try {
            Syscalls.renameat2(parent, temp.name, parent, name, RENAME_EXCHANGE);
        } catch (ErrnoException e) {
            // Another writer moved the names again: whatever is at the temp name now is not ours to remove.
            temp.committed = true;
            LOG.atWarn()
                    .setMessage("replace_undo_failed")
                    .addKeyValue("errno", e.errno())
                    .log();
        }
        throw conflict(label);
    }

    FileStat deleteFile(int root, WorkdirPath path, Revision expectedRevision, String label) {
        int parent = openParent(root, path, label, false);
        try {
            int fd;
            try {
                fd = Syscalls.openat(parent, path.name(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0);
            } catch (ErrnoException e) {
                throw FsFailures.fromErrno(e.errno(), label);
            }
            try {
                FileStat st = fstat(fd, label);
                if (st.isDirectory()) {
                    throw FsFailures.of(ErrorCode.NOT_A_FILE, label);
                }
                if (!st.isRegularFile()) {
                    throw FsFailures.of(ErrorCode.UNSUPPORTED_FILE_TYPE, label);
                }
                requireRevision(st, expectedRevision, label);
                recheckName(parent, path.name(), expectedRevision, label);
                try {
                    Syscalls.unlinkat(parent, path.name(), 0);
                } catch (ErrnoException e) {
                    throw mutationFailure(e.errno(), label);
                }
                fsyncDirectory(parent);
                return st;
            } finally {
                Syscalls.close(fd);
            }
        } finally {
            Syscalls.close(parent);
        }
    }

    FileStat createDirectory(int root, WorkdirPath path, String label) {
        int parent = openParent(root, path, label, true);
        try {
            try {
                Syscalls.mkdirat(parent, path.name(), 0777);
            } catch (ErrnoException e) {
                throw e.errno() == Errno.EEXIST ? exists(label) : mutationFailure(e.errno(), label);
            }
            fsyncDirectory(parent);
            try {
                return Syscalls.statx(parent, path.name(), AT_SYMLINK_NOFOLLOW);
            } catch (ErrnoException e) {
                throw mutationFailure(e.errno(), label);
            }
        } finally {
            Syscalls.close(parent);
        }
    }

    FileStat deleteDirectory(int root, WorkdirPath path, Revision expectedRevision, String label) {
        int parent = openParent(root, path, label, false);
        try {
            int fd;
            try {
                fd = Syscalls.openat(parent, path.name(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
            } catch (ErrnoException e) {
                throw classifyDirectoryOpen(parent, path.name(), e.errno(), label);
            }
            try {
                FileStat st = fstat(fd, label);
                requireRevision(st, expectedRevision, label);
                boolean empty;
                try {
                    empty = Dirents.read(fd).isEmpty();
                } catch (ErrnoException e) {
                    throw mutationFailure(e.errno(), label);
                }
                if (!empty) {
                    throw notEmpty(label);
                }
                recheckName(parent, path.name(), expectedRevision, label);
                try {
                    Syscalls.unlinkat(parent, path.name(), AT_REMOVEDIR);
                } catch (ErrnoException e) {
                    // A name that getdents could not decode, or one created since the scan.
                    throw e.errno() == Errno.ENOTEMPTY || e.errno() == Errno.EEXIST
                            ? notEmpty(label)
                            : mutationFailure(e.errno(), label);
                }
                fsyncDirectory(parent);
                return st;
            } finally {
                Syscalls.close(fd);
            }
        } finally {
            Syscalls.close(parent);
        }
    }

    private static RuntimeException classifyDirectoryOpen(int parent, String name, int errno, String label) {
        if (errno == Errno.ENOTDIR || errno == Errno.ELOOP) {
            try {
                FileStat st = Syscalls.statx(parent, name, AT_SYMLINK_NOFOLLOW);
                return FsFailures.of(st.isSymlink() ? ErrorCode.SYMLINK_NOT_ALLOWED : ErrorCode.NOT_A_DIRECTORY, label);
            } catch (ErrnoException again) {
                return FsFailures.fromErrno(again.errno(), label);
            }
        }
        return FsFailures.fromErrno(errno, label);
    }

    private static void requireAbsent(int parent, String name, String label) {
        try {
            Syscalls.statx(parent, name, AT_SYMLINK_NOFOLLOW);
            throw exists(label);
        } catch (ErrnoException e) {
            if (e.errno() != Errno.ENOENT) {
                throw FsFailures.fromErrno(e.errno(), label);
            }
        }
    }

    private static void requireRevision(FileStat st, Revision expected, String label) {
        if (!st.revision().equals(expected)) {
            throw conflict(label);
        }
    }

    /** The name's own {@code lstat}, just before the unlink: still the same inode in the expected state. */
    private static void recheckName(int parent, String name, Revision expected, String label) {
        try {
            requireRevision(Syscalls.statx(parent, name, AT_SYMLINK_NOFOLLOW), expected, label);
        } catch (ErrnoException e) {
            throw conflict(label);
        }
    }

    static FileStat fstat(int fd, String label) {
        try {
            return Syscalls.fstat(fd);
        } catch (ErrnoException e) {
            throw mutationFailure(e.errno(), label);
        }
    }

    /** After a commit a failed directory fsync only weakens durability: logged, the call succeeds (§2.8). */
    private static void fsyncDirectory(int dir) {
        try {
            Syscalls.fsync(dir);
        } catch (ErrnoException e) {
            LOG.atWarn()
                    .setMessage("directory_fsync_failed")
                    .addKeyValue("errno", e.errno())
                    .log();
        }
    }

    static ServerFsException conflict(String label) {
        return new ServerFsException(ErrorCode.REVISION_CONFLICT, label, "the path changed since expected_revision");
    }

    private static ServerFsException exists(String label) {
        return new ServerFsException(ErrorCode.PATH_ALREADY_EXISTS, label, "something already exists at this path");
    }

    private static ServerFsException notEmpty(String label) {
        return new ServerFsException(ErrorCode.DIRECTORY_NOT_EMPTY, label, "directory is not empty");
    }

    /** Permission → {@code ACCESS_DENIED}; descriptor exhaustion → {@code RESOURCE_EXHAUSTED}; else I/O (§2.8). */
    static ServerFsException mutationFailure(int errno, String label) {
        return switch (errno) {
            case Errno.EACCES, Errno.EPERM -> FsFailures.of(ErrorCode.ACCESS_DENIED, label);
            case Errno.EMFILE, Errno.ENFILE -> FsFailures.of(ErrorCode.RESOURCE_EXHAUSTED, label);
            default ->
                new ServerFsException(ErrorCode.MUTATION_IO_ERROR, label + " (" + FsFailures.strerror(errno) + ")");
        };
    }

    /** One temp entry: removed on close unless committed. */
    private static final class Temp implements AutoCloseable {
        final int parent;
        final String name;
        final int fd;
        final String label;
        boolean committed;

        private Temp(int parent, String name, int fd, String label) {
            this.parent = parent;
            this.name = name;
            this.fd = fd;
            this.label = label;
        }

        static Temp create(int parent, Supplier<String> names, int mode, String label) {
            for (int attempt = 0; ; attempt++) {
                String name = names.get();
                try {
                    int fd = Syscalls.openat(parent, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
                    return new Temp(parent, name, fd, label);
                } catch (ErrnoException e) {
                    if (e.errno() != Errno.EEXIST || attempt + 1 >= TEMP_ATTEMPTS) {
                        throw mutationFailure(e.errno(), label);
                    }
                }
            }
        }

        void write(byte[] content) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = arena.allocate(Math.max(1, content.length));
                MemorySegment.copy(content, 0, buffer, JAVA_BYTE, 0, content.length);
                Syscalls.writeFully(fd, buffer, content.length);
            } catch (ErrnoException e) {
                throw mutationFailure(e.errno(), label);
            }
        }

        void fsync() {
            try {
                Syscalls.fsync(fd);
            } catch (ErrnoException e) {
                throw mutationFailure(e.errno(), label);
            }
        }

        FileStat stat(String label) {
            return fstat(fd, label);
        }

        @Override
        public void close() {
            if (!committed) {
                try {
                    Syscalls.unlinkat(parent, name, 0);
                } catch (ErrnoException e) {
                    LOG.atWarn()
                            .setMessage("temp_unlink_failed")
                            .addKeyValue("errno", e.errno())
                            .log();
                }
            }
            Syscalls.close(fd);
        }
    }
}
