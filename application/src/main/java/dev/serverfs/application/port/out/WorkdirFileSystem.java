package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;

/**
 * Read access to a workdir's files, confined by the kernel beneath the workdir root (contract reference §2.0).
 * Paths are already normalised and policy-checked by the caller; implementations never follow a symlink and
 * fail with {@code SYMLINK_NOT_ALLOWED}, {@code PATH_NOT_FOUND}, {@code NOT_A_FILE}, {@code NOT_A_DIRECTORY},
 * {@code UNSUPPORTED_FILE_TYPE}, {@code ACCESS_DENIED} or {@code RESOURCE_EXHAUSTED}, messages shaped
 * {@code <workdir>:<path> — …}. Thread-safe.
 */
public interface WorkdirFileSystem {

    /** {@code lstat} of the final component; a symlink is reported, not followed; a symlinked parent fails. */
    FileStat stat(Workdir workdir, WorkdirPath path);

    /**
     * Opens a directory (never through a symlink) and scans its entry names once; the caller {@code lstat}s the
     * entries it needs through the returned listing and closes it.
     */
    DirectoryListing openDirectory(Workdir workdir, WorkdirPath directory);

    /**
     * Depth-first walk beneath a directory, children of each directory in code-point order, never entering a
     * symlinked directory. Open descriptors are bounded by depth. Fails only for the root itself; directories
     * that vanish or turn into something else during the walk are skipped.
     */
    void walk(Workdir workdir, WorkdirPath root, WalkVisitor visitor);

    /**
     * Opens a regular file for reading without following a symlink or blocking on a FIFO; directories are
     * {@code NOT_A_FILE}, FIFOs, sockets and devices {@code UNSUPPORTED_FILE_TYPE}. The caller closes it.
     */
    ReadableFile openRegularFile(Workdir workdir, WorkdirPath path);

    /** Literal content search beneath a directory with ripgrep's default file selection (reference §2.4). */
    TextSearchOutcome searchText(Workdir workdir, WorkdirPath root, TextSearch search);
}
