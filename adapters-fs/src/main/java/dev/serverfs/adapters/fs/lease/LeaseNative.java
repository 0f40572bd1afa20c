package dev.serverfs.adapters.fs.lease;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The few libc calls the lease needs ({@code open}, {@code flock}, {@code statx}, {@code close}) with errno
 * capture. Kept in this package on purpose (the filesystem adapter has its own native layer; they may merge).
 */
final class LeaseNative {
    static final int O_RDONLY = 0;
    static final int O_RDWR = 2;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0x8000 : 0x20000;
    static final int LOCK_EX = 2;
    static final int LOCK_NB = 4;
    static final int LOCK_UN = 8;
    static final int EINTR = 4;
    static final int EWOULDBLOCK = 11;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int STATX_TYPE = 0x1;
    static final int S_IFMT = 0xF000;
    static final int S_IFREG = 0x8000;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE = Linker.Option.captureCallState("errno");

    private static final MethodHandle OPEN = LINKER.downcallHandle(
            LINKER.defaultLookup().findOrThrow("open"),
            FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            CAPTURE,
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle FLOCK = LINKER.downcallHandle(
            LINKER.defaultLookup().findOrThrow("flock"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
            CAPTURE);
    private static final MethodHandle STATX = LINKER.downcallHandle(
            LINKER.defaultLookup().findOrThrow("statx"),
            FunctionDescriptor.of(
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT,
                    ValueLayout.JAVA_INT,
                    ValueLayout.ADDRESS),
            CAPTURE);
    private static final MethodHandle CLOSE = LINKER.downcallHandle(
            LINKER.defaultLookup().findOrThrow("close"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));

    /** {@code struct statx} is 256 bytes; {@code stx_mode} is a u16 at offset 28. */
    private static final long STATX_SIZE = 256;

    private static final long STX_MODE_OFFSET = 28;

    private LeaseNative() {}

    /** The result of a call: a non-negative value, or -1 with errno. */
    record Result(int value, int errno) {
        boolean failed() {
            return value < 0;
        }
    }

    static Result open(String path, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment cPath = arena.allocateFrom(path);
            int fd = (int) OPEN.invokeExact(state, cPath, flags, 0);
            return new Result(fd, fd < 0 ? (int) ERRNO.get(state, 0L) : 0);
        } catch (Throwable t) {
            throw new IllegalStateException("open downcall failed", t);
        }
    }

    static Result flock(int fd, int operation) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            while (true) {
                int rc = (int) FLOCK.invokeExact(state, fd, operation);
                int errno = rc < 0 ? (int) ERRNO.get(state, 0L) : 0;
                if (rc < 0 && errno == EINTR) {
                    continue;
                }
                return new Result(rc, errno);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("flock downcall failed", t);
        }
    }

    /** True iff the open descriptor is a regular file. */
    static boolean isRegular(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            MemorySegment buf = arena.allocate(STATX_SIZE, 8);
            MemorySegment empty = arena.allocateFrom("");
            int rc = (int) STATX.invokeExact(state, fd, empty, AT_EMPTY_PATH, STATX_TYPE, buf);
            if (rc < 0) {
                return false;
            }
            int mode = Short.toUnsignedInt(buf.get(ValueLayout.JAVA_SHORT_UNALIGNED, STX_MODE_OFFSET));
            return (mode & S_IFMT) == S_IFREG;
        } catch (Throwable t) {
            throw new IllegalStateException("statx downcall failed", t);
        }
    }

    static void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close downcall failed", t);
        }
    }
}
