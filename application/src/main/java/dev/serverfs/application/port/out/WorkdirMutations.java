package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.Revision;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPath;

/**
 * Changes to a workdir's files, confined like {@link WorkdirFileSystem} and acting on the final name through its
 * parent directory descriptor (contract reference §2.8-§2.13). Publication is atomic: a {@code .serverfs-tmp-*}
 * temp file in the same directory, fsynced, then {@code linkat} (create, never overwrites) or {@code renameat}
 * (replace); the returned stat is taken after the commit. Callers hold the mutation gate; paths are policy-checked
 * and never the root. Failures are {@code ServerFsException}s: {@code PARENT_NOT_FOUND}, {@code
 * PATH_ALREADY_EXISTS}, {@code PATH_NOT_FOUND}, {@code NOT_A_FILE}, {@code NOT_A_DIRECTORY}, {@code
 * UNSUPPORTED_FILE_TYPE}, {@code SYMLINK_NOT_ALLOWED}, {@code REVISION_CONFLICT}, {@code DIRECTORY_NOT_EMPTY},
 * {@code METADATA_PRESERVATION_FAILED}, {@code ACCESS_DENIED}, {@code MUTATION_IO_ERROR}.
 */
public interface WorkdirMutations {

    /** Publishes a new regular file with exactly {@code content}; anything already at the name wins. */
    FileStat createFile(Workdir workdir, WorkdirPath path, byte[] content);

    /**
     * Opens an existing regular file for a whole-file replacement (edit, binary overwrite); the caller reads and
     * checks it, then calls {@link ReplaceableFile#replace}. The caller closes it.
     */
    ReplaceableFile openForReplace(Workdir workdir, WorkdirPath path);

    /**
     * Removes a regular file (any content) whose revision, on the held descriptor and again on the name just
     * before {@code unlinkat}, is {@code expectedRevision}; returns the removed file's stat.
     */
    FileStat deleteFile(Workdir workdir, WorkdirPath path, Revision expectedRevision);

    /** Creates one directory level ({@code mkdirat}, mode {@code 0777 & umask}); returns its stat. */
    FileStat createDirectory(Workdir workdir, WorkdirPath path);

    /** Removes a physically empty directory whose revision is {@code expectedRevision}; returns its last stat. */
    FileStat deleteDirectory(Workdir workdir, WorkdirPath path, Revision expectedRevision);
}
