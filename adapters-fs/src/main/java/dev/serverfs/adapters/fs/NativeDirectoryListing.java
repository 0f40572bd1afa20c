package dev.serverfs.adapters.fs;

import static dev.serverfs.adapters.fs.linux.OpenFlags.AT_SYMLINK_NOFOLLOW;

import dev.serverfs.adapters.fs.linux.Errno;
import dev.serverfs.adapters.fs.linux.ErrnoException;
import dev.serverfs.adapters.fs.linux.Syscalls;
import dev.serverfs.application.port.out.DirectoryListing;
import dev.serverfs.domain.file.FileStat;
import java.util.List;
import java.util.Optional;

/**
 * A {@link DirectoryListing} over an open directory descriptor (opened beneath the workdir root by
 * {@link Confinement}): every {@code lstat} is a {@code statx(fd, name, AT_SYMLINK_NOFOLLOW)} relative to it, so a
 * name is always looked up in the directory that was scanned. Closes the descriptor exactly once.
 */
final class NativeDirectoryListing implements DirectoryListing {

    private final int fd;
    private final List<String> names;
    private final String label;
    private boolean closed;

    NativeDirectoryListing(int fd, List<String> names, String label) {
        this.fd = fd;
        this.names = List.copyOf(names);
        this.label = label;
    }

    @Override
    public List<String> names() {
        return names;
    }

    @Override
    public Optional<FileStat> lstat(String name) {
        if (closed) {
            throw new IllegalStateException("directory listing is closed");
        }
        if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            // Only one component: statx resolves a longer path component by component, following symlinks in
            // all but the last, which would leave the directory.
            throw new IllegalArgumentException("not an entry name");
        }
        try {
            return Optional.of(Syscalls.statx(fd, name, AT_SYMLINK_NOFOLLOW));
        } catch (ErrnoException e) {
            if (e.errno() == Errno.ENOENT) {
                // Vanished since the scan (reference §2.2: skipped).
                return Optional.empty();
            }
            throw FsFailures.fromErrno(e.errno(), label);
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Syscalls.close(fd);
        }
    }
}
