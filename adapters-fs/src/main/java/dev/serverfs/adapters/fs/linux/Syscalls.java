package dev.serverfs.adapters.fs.linux;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.serverfs.domain.file.FileStat;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;

/**
 * The system calls adapters-fs uses, each a thin typed wrapper that retries {@code EINTR} and reports failure
 * as {@link ErrnoException}. Pooled scratch memory (call state, path buffer, {@code struct statx},
 * {@code struct open_how}) keeps a call allocation-free. Paths are passed as UTF-8; they never contain NUL
 * because the domain rejects it.
 */
public final class Syscalls {

    private static final int PATH_CAPACITY = 4096;
    private static final int STATX_SIZE = 256;
    private static final int STATX_BASIC_STATS = 0x7ff;

    private static final MethodHandle OPENAT =
            Libc.function("openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle SYSCALL4 = Libc.function(
            "syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle STATX =
            Libc.function("statx", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle GETDENTS64 =
            Libc.function("getdents64", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle READ =
            Libc.function("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = Libc.function("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle WRITE =
            Libc.function("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle FSYNC = Libc.function("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle FCHMOD =
            Libc.function("fchmod", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle FCHOWN =
            Libc.function("fchown", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle LINKAT =
            Libc.function("linkat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle RENAMEAT =
            Libc.function("renameat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    /** {@code renameat2(2)} (glibc 2.28+); null where the C library has none, and then never exchanged. */
    private static final MethodHandle RENAMEAT2 = Libc.has("renameat2")
            ? Libc.function(
                    "renameat2", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT))
            : null;

    private static final MethodHandle UNLINKAT =
            Libc.function("unlinkat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle MKDIRAT =
            Libc.function("mkdirat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle FLOCK =
            Libc.function("flock", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle GETEUID = Libc.function("geteuid", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle FLISTXATTR =
            Libc.function("flistxattr", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle FGETXATTR =
            Libc.function("fgetxattr", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    private static final MethodHandle FSETXATTR = Libc.function(
            "fsetxattr", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT));

    private static final ScratchPool<Scratch> SCRATCH = new ScratchPool<>(Scratch::new);

    /**
     * Makes the downcall handles above now (the class's initialization, ≈ 0.25 s of a JVM's first use: the FFM
     * linker generates each stub), so that a start-up can do it on a second thread.
     */
    public static void link() {
        // The call initialized the class; nothing else to do.
    }

    /** Native scratch memory for one call at a time, borrowed from {@link #SCRATCH} (issue 10 §4b). */
    private static final class Scratch {
        final Arena arena = Arena.ofAuto();
        final MemorySegment callState = Libc.newCallState(arena);
        final MemorySegment path = arena.allocate(PATH_CAPACITY);
        final MemorySegment statx = arena.allocate(STATX_SIZE, 8);
        final MemorySegment openHow = arena.allocate(24, 8);
        final MemorySegment path2 = arena.allocate(PATH_CAPACITY);

        /** The NUL-terminated UTF-8 of {@code text} in the first path buffer. */
        MemorySegment path(String text) throws ErrnoException {
            return fill(path, text);
        }

        /** The same in a second path buffer, for two-path calls ({@code linkat}, {@code renameat}). */
        MemorySegment path2(String text) throws ErrnoException {
            return fill(path2, text);
        }

        /** The NUL-terminated {@code bytes} (a name as the file system spells it) in the first path buffer. */
        MemorySegment path(byte[] bytes) throws ErrnoException {
            return fill(path, bytes);
        }

        private static MemorySegment fill(MemorySegment buffer, String text) throws ErrnoException {
            return fill(buffer, text.getBytes(StandardCharsets.UTF_8));
        }

        private static MemorySegment fill(MemorySegment buffer, byte[] bytes) throws ErrnoException {
            if (bytes.length >= PATH_CAPACITY) {
                throw new ErrnoException("path", Errno.ENAMETOOLONG);
            }
            MemorySegment.copy(bytes, 0, buffer, JAVA_BYTE, 0, bytes.length);
            buffer.set(JAVA_BYTE, bytes.length, (byte) 0);
            return buffer;
        }
    }

    private Syscalls() {}

    /** {@code openat(2)}. */
    public static int openat(int dirfd, String path, int flags, int mode) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment p = s.path(path);
            while (true) {
                int fd;
                try {
                    fd = (int) OPENAT.invokeExact(s.callState, dirfd, p, flags, mode);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
                if (fd >= 0) {
                    return fd;
                }
                throwUnlessInterrupted("openat", s);
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code openat2(2)} through {@code syscall(2)}: {@code struct open_how {flags, mode, resolve}}. */
    public static int openat2(int dirfd, String path, long flags, long mode, long resolve) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment p = s.path(path);
            s.openHow.set(JAVA_LONG, 0, flags);
            s.openHow.set(JAVA_LONG, 8, mode);
            s.openHow.set(JAVA_LONG, 16, resolve);
            while (true) {
                long fd;
                try {
                    fd = (long)
                            SYSCALL4.invokeExact(s.callState, OpenFlags.SYS_OPENAT2, (long) dirfd, p, s.openHow, 24L);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
                if (fd >= 0) {
                    return (int) fd;
                }
                int errno = Libc.errno(s.callState);
                if (errno != Errno.EINTR && errno != Errno.EAGAIN) {
                    // EAGAIN only with RESOLVE_CACHED (unused) or a racing rename: retrying is what the man page
                    // advises.
                    throw new ErrnoException("openat2", errno);
                }
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code statx(2)} with the basic stats; {@code flags} e.g. {@code AT_SYMLINK_NOFOLLOW}, {@code AT_EMPTY_PATH}. */
    public static FileStat statx(int dirfd, String path, int flags) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            return statx(s, dirfd, s.path(path), flags);
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@link #statx(int, String, int)} of a path given as bytes (a name that need not be UTF-8), never decoded. */
    public static FileStat statx(int dirfd, byte[] path, int flags) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            return statx(s, dirfd, s.path(path), flags);
        } finally {
            SCRATCH.release(s);
        }
    }

    private static FileStat statx(Scratch s, int dirfd, MemorySegment p, int flags) throws ErrnoException {
        int rc;
        try {
            rc = (int) STATX.invokeExact(s.callState, dirfd, p, flags, STATX_BASIC_STATS, s.statx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (rc != 0) {
            throw new ErrnoException("statx", Libc.errno(s.callState));
        }
        return toFileStat(s.statx);
    }

    /** {@code fstat} of an open descriptor (any type, {@code O_PATH} included), never following a symlink. */
    public static FileStat fstat(int fd) throws ErrnoException {
        return statx(fd, "", OpenFlags.AT_EMPTY_PATH | OpenFlags.AT_SYMLINK_NOFOLLOW);
    }

    /** {@code getdents64(2)}: fills {@code buffer} with {@code struct linux_dirent64} records; 0 at the end. */
    public static int getdents64(int fd, MemorySegment buffer) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            while (true) {
                long n;
                try {
                    n = (long) GETDENTS64.invokeExact(s.callState, fd, buffer, buffer.byteSize());
                } catch (Throwable t) {
                    throw rethrow(t);
                }
                if (n >= 0) {
                    return (int) n;
                }
                throwUnlessInterrupted("getdents64", s);
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code read(2)} into native memory; 0 at end of file. */
    public static long read(int fd, MemorySegment buffer, long count) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            while (true) {
                long n;
                try {
                    n = (long) READ.invokeExact(s.callState, fd, buffer, Math.min(count, buffer.byteSize()));
                } catch (Throwable t) {
                    throw rethrow(t);
                }
                if (n >= 0) {
                    return n;
                }
                throwUnlessInterrupted("read", s);
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code close(2)}; errors are ignored (Linux frees the descriptor even on EINTR). */
    public static void close(int fd) {
        Scratch s = SCRATCH.acquire();
        try {
            try {
                int ignored = (int) CLOSE.invokeExact(s.callState, fd);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code write(2)} of the whole buffer (loops over short writes). */
    public static void writeFully(int fd, MemorySegment buffer, long count) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            long done = 0;
            while (done < count) {
                long n;
                try {
                    n = (long) WRITE.invokeExact(s.callState, fd, buffer.asSlice(done), count - done);
                } catch (Throwable t) {
                    throw rethrow(t);
                }
                if (n >= 0) {
                    done += n;
                } else {
                    throwUnlessInterrupted("write", s);
                }
            }
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code fsync(2)}. */
    public static void fsync(int fd) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            retrying("fsync", s, () -> (int) FSYNC.invokeExact(s.callState, fd));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code fchmod(2)}: permission bits including setuid, setgid and sticky. */
    public static void fchmod(int fd, int mode) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            retrying("fchmod", s, () -> (int) FCHMOD.invokeExact(s.callState, fd, mode));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code fchown(2)}. */
    public static void fchown(int fd, int uid, int gid) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            retrying("fchown", s, () -> (int) FCHOWN.invokeExact(s.callState, fd, uid, gid));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code linkat(2)} without following: never replaces an existing {@code newName} (EEXIST). */
    public static void linkat(int oldDir, String oldName, int newDir, String newName) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment a = s.path(oldName);
            MemorySegment b = s.path2(newName);
            retrying("linkat", s, () -> (int) LINKAT.invokeExact(s.callState, oldDir, a, newDir, b, 0));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code renameat(2)}: atomically replaces {@code newName}. */
    public static void renameat(int oldDir, String oldName, int newDir, String newName) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment a = s.path(oldName);
            MemorySegment b = s.path2(newName);
            retrying("renameat", s, () -> (int) RENAMEAT.invokeExact(s.callState, oldDir, a, newDir, b));
        } finally {
            SCRATCH.release(s);
        }
    }

    /**
     * {@code renameat2(2)} with {@code flags} ({@code RENAME_EXCHANGE}: swap the two names atomically); {@code
     * ENOSYS} without the C library's wrapper, {@code EINVAL} where the file system cannot.
     */
    public static void renameat2(int oldDir, String oldName, int newDir, String newName, int flags)
            throws ErrnoException {
        if (RENAMEAT2 == null) {
            throw new ErrnoException("renameat2", Errno.ENOSYS);
        }
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment a = s.path(oldName);
            MemorySegment b = s.path2(newName);
            retrying("renameat2", s, () -> (int) RENAMEAT2.invokeExact(s.callState, oldDir, a, newDir, b, flags));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code unlinkat(2)}; {@code AT_REMOVEDIR} removes an empty directory. */
    public static void unlinkat(int dir, String name, int flags) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment p = s.path(name);
            retrying("unlinkat", s, () -> (int) UNLINKAT.invokeExact(s.callState, dir, p, flags));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code mkdirat(2)}; the kernel applies the umask to {@code mode}. */
    public static void mkdirat(int dir, String name, int mode) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            MemorySegment p = s.path(name);
            retrying("mkdirat", s, () -> (int) MKDIRAT.invokeExact(s.callState, dir, p, mode));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code geteuid(2)}: the uid that owns what this process creates (it cannot fail). */
    public static int geteuid() {
        Scratch s = SCRATCH.acquire();
        try {
            return (int) GETEUID.invokeExact(s.callState);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code flock(2)}; {@code operation} e.g. {@code LOCK_EX | LOCK_NB} (busy: {@code EWOULDBLOCK}). */
    public static void flock(int fd, int operation) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            retrying("flock", s, () -> (int) FLOCK.invokeExact(s.callState, fd, operation));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code flistxattr(2)} into {@code buffer} (size 0 asks for the needed size); returns the byte count. */
    public static long flistxattr(int fd, MemorySegment buffer, long size) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            return retrying("flistxattr", s, () -> (long) FLISTXATTR.invokeExact(s.callState, fd, buffer, size));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code fgetxattr(2)} of a NUL-terminated {@code name}; size 0 asks for the needed size. */
    public static long fgetxattr(int fd, MemorySegment name, MemorySegment value, long size) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            return retrying("fgetxattr", s, () -> (long) FGETXATTR.invokeExact(s.callState, fd, name, value, size));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** {@code fsetxattr(2)} with flags 0 (create or replace). */
    public static void fsetxattr(int fd, MemorySegment name, MemorySegment value, long size) throws ErrnoException {
        Scratch s = SCRATCH.acquire();
        try {
            retrying("fsetxattr", s, () -> (int) FSETXATTR.invokeExact(s.callState, fd, name, value, size, 0));
        } finally {
            SCRATCH.release(s);
        }
    }

    /** One downcall whose negative result means failure with {@code errno}; {@code int} results widen. */
    @FunctionalInterface
    private interface Call {
        long call() throws Throwable;
    }

    /**
     * Runs {@code call} until it succeeds (returning its result) or fails with another errno than EINTR. The hot
     * calls ({@code openat}, {@code getdents64}, {@code read}, {@code write}) keep the same loop inline instead,
     * free of a capturing lambda.
     */
    private static long retrying(String name, Scratch s, Call call) throws ErrnoException {
        while (true) {
            long rc;
            try {
                rc = call.call();
            } catch (Throwable t) {
                throw rethrow(t);
            }
            if (rc >= 0) {
                return rc;
            }
            throwUnlessInterrupted(name, s);
        }
    }

    /** After a failed call: its {@code errno} as {@link ErrnoException}, unless {@code EINTR} (then retry). */
    private static void throwUnlessInterrupted(String call, Scratch s) throws ErrnoException {
        int errno = Libc.errno(s.callState);
        if (errno != Errno.EINTR) {
            throw new ErrnoException(call, errno);
        }
    }

    /** Decodes a {@code struct statx} (fixed layout on every architecture). */
    static FileStat toFileStat(MemorySegment b) {
        long nlink = Integer.toUnsignedLong(b.get(JAVA_INT, 16));
        int uid = b.get(JAVA_INT, 20);
        int gid = b.get(JAVA_INT, 24);
        int mode = Short.toUnsignedInt(b.get(JAVA_SHORT, 28));
        long ino = b.get(JAVA_LONG, 32);
        long size = b.get(JAVA_LONG, 40);
        long ctimeSec = b.get(JAVA_LONG, 96);
        int ctimeNsec = b.get(JAVA_INT, 104);
        long mtimeSec = b.get(JAVA_LONG, 112);
        int mtimeNsec = b.get(JAVA_INT, 120);
        long major = Integer.toUnsignedLong(b.get(JAVA_INT, 136));
        long minor = Integer.toUnsignedLong(b.get(JAVA_INT, 140));
        // glibc's makedev(), so the revision tuple equals the reference's os.stat().st_dev.
        long dev = ((major & 0xfffff000L) << 32)
                | ((major & 0xfffL) << 8)
                | ((minor & 0xffffff00L) << 12)
                | (minor & 0xffL);
        return new FileStat(dev, ino, mode, uid, gid, size, mtimeSec, mtimeNsec, ctimeSec, ctimeNsec, nlink);
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed", t);
    }
}
