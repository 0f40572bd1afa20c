package dev.serverfs.adapters.bridge;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

/** This process' real uid and gid through the FFM API ({@code getuid(2)}, {@code getgid(2)}; they cannot fail). */
final class Posix {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle GETUID = function("getuid");
    private static final MethodHandle GETGID = function("getgid");

    private Posix() {}

    static int uid() {
        try {
            return (int) GETUID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("getuid failed", t);
        }
    }

    static int gid() {
        try {
            return (int) GETGID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("getgid failed", t);
        }
    }

    private static MethodHandle function(String name) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), FunctionDescriptor.of(JAVA_INT));
    }
}
