package dev.serverfs.adapters.fs.linux;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * Downcalls into the C library with {@code errno} captured by the linker, so no other call on the thread can
 * clobber it between the failing call and our look at it. Every handle made by {@link #function} takes the
 * call-state segment ({@link #newCallState}) as its first argument.
 */
public final class Libc {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private Libc() {}

    /** A handle to the C function {@code name} that captures {@code errno}; extra options (e.g. variadic) appended. */
    public static MethodHandle function(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup()
                .find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("C library function not found: " + name));
        Linker.Option[] all = new Linker.Option[options.length + 1];
        all[0] = CAPTURE_ERRNO;
        System.arraycopy(options, 0, all, 1, options.length);
        return LINKER.downcallHandle(symbol, descriptor, all);
    }

    /** Whether the C library exports {@code name} (e.g. {@code statx} needs glibc 2.28). */
    public static boolean has(String name) {
        return LINKER.defaultLookup().find(name).isPresent();
    }

    /** A call-state segment to pass as first argument to handles from {@link #function}. */
    public static MemorySegment newCallState(Arena arena) {
        return arena.allocate(CALL_STATE);
    }

    /** The {@code errno} captured by the last call that used this call-state segment. */
    public static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }
}
