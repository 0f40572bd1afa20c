package dev.serverfs.adapters.fs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.adapters.fs.linux.Libc;
import dev.serverfs.adapters.fs.linux.OpenFlags;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.in.FindFilesUseCase.FindFilesQuery;
import dev.serverfs.application.port.in.ListDirectoryUseCase.ListDirectoryQuery;
import dev.serverfs.application.port.in.SearchTextUseCase.SearchTextQuery;
import dev.serverfs.application.service.FindFilesService;
import dev.serverfs.application.service.ListDirectoryService;
import dev.serverfs.application.service.SearchTextService;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.Workdirs;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EMFILE → {@code RESOURCE_EXHAUSTED} (reference §2.0, v0.7.2): the soft {@code RLIMIT_NOFILE} of this JVM is
 * lowered to (about) the next free descriptor, for the duration of each call, then restored. Every class the
 * calls need is loaded beforehand by a successful run, so nothing else needs a descriptor meanwhile.
 */
class ResourceExhaustionTest {

    private static final int RLIMIT_NOFILE = 7;
    private static final MethodHandle GETRLIMIT =
            Libc.function("getrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle SETRLIMIT =
            Libc.function("setrlimit", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));

    @TempDir
    Path root;

    @Test
    void running_out_of_descriptors_is_resource_exhausted_on_every_walking_channel() throws Throwable {
        Path deep = root;
        for (int i = 0; i < 30; i++) {
            deep = deep.resolve("d" + i);
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("f.txt"), "needle\n");
        Workdirs workdirs = new Workdirs(List.of(new Workdir(
                1,
                new WorkdirAlias("wd"),
                Optional.empty(),
                Access.READ_ONLY,
                ReadToolsContract.policy(false, 1 << 19, 500),
                root)));
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            ListDirectoryService list = new ListDirectoryService(workdirs, ServerLimits.DEFAULTS, fs);
            FindFilesService find = new FindFilesService(workdirs, ServerLimits.DEFAULTS, fs);
            SearchTextService search = new SearchTextService(workdirs, ServerLimits.DEFAULTS, fs);
            Runnable listing = () -> list.listDirectory(new ListDirectoryQuery("wd", "d0", null, null));
            Runnable finding = () -> find.findFiles(new FindFilesQuery("wd", "*.txt", "", null));
            Runnable searching = () -> search.searchText(new SearchTextQuery("wd", "needle", "", null, null, null));
            // Warm-up: load every class on these paths (and the failure path) while descriptors are plentiful.
            listing.run();
            assertEquals(
                    1,
                    find.findFiles(new FindFilesQuery("wd", "*.txt", "", null)).returned());
            assertEquals(
                    1,
                    search.searchText(new SearchTextQuery("wd", "needle", "", null, null, null))
                            .returned());
            assertThrows(
                    ServerFsException.class,
                    () -> list.listDirectory(new ListDirectoryQuery("wd", "nope", null, null)));
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, underTightLimit(0, listing));
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, underTightLimit(5, finding));
            assertEquals(ErrorCode.RESOURCE_EXHAUSTED, underTightLimit(5, searching));
        }
    }

    /** Runs {@code call} with only {@code headroom} descriptors to spare and returns the code it failed with. */
    private static ErrorCode underTightLimit(int headroom, Runnable call) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = Libc.newCallState(arena);
            MemorySegment saved = arena.allocate(16, 8);
            if ((int) GETRLIMIT.invokeExact(state, RLIMIT_NOFILE, saved) != 0) {
                throw new IllegalStateException("getrlimit failed");
            }
            MemorySegment tight = arena.allocate(16, 8);
            tight.set(JAVA_LONG, 0, lowestFreeDescriptor() + headroom);
            tight.set(JAVA_LONG, 8, saved.get(JAVA_LONG, 8));
            ServerFsException failure = null;
            if ((int) SETRLIMIT.invokeExact(state, RLIMIT_NOFILE, tight) != 0) {
                throw new IllegalStateException("setrlimit failed");
            }
            try {
                call.run();
            } catch (ServerFsException e) {
                failure = e;
            } finally {
                if ((int) SETRLIMIT.invokeExact(state, RLIMIT_NOFILE, saved) != 0) {
                    throw new IllegalStateException("setrlimit restore failed");
                }
            }
            if (failure == null) {
                throw new AssertionError("the call succeeded despite the descriptor limit");
            }
            return failure.code();
        }
    }

    /** The descriptor the next open would get (the kernel hands out the lowest free one). */
    private static long lowestFreeDescriptor() throws Exception {
        int fd = Syscalls.openat(OpenFlags.AT_FDCWD, "/", OpenFlags.O_PATH | OpenFlags.O_CLOEXEC, 0);
        Syscalls.close(fd);
        return fd;
    }
}
