package dev.serverfs.adapters.fs;

import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.HeldDirectory;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@code O_PATH | O_DIRECTORY} descriptor held by this process, named {@code /proc/<pid>/fd/<n>}: a child that
 * starts there chdirs through the descriptor's magic link to the very directory that was opened beneath the root.
 * Not {@code /proc/self/fd/<n>}: the JDK's spawn helper that chdirs is another process, without our descriptors.
 * The root descriptor it was opened beneath is held as long, named the same way.
 */
final class NativeHeldDirectory implements HeldDirectory {
    private final int fd;
    private final int rootFd;
    private final Path path;
    private final Path root;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Takes both descriptors: closing this closes them. */
    NativeHeldDirectory(int fd, int rootFd) {
        this.fd = fd;
        this.rootFd = rootFd;
        this.path = named(fd);
        this.root = named(rootFd);
    }

    private static Path named(int fd) {
        return Path.of("/proc", Long.toString(ProcessHandle.current().pid()), "fd", Integer.toString(fd));
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public Path root() {
        return root;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Syscalls.close(fd);
            Syscalls.close(rootFd);
        }
    }

    @Override
    public String toString() {
        return "NativeHeldDirectory[fd=" + fd + ", root=" + rootFd + "]";
    }
}
