package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;
import dev.serverfs.domain.file.Revision;

/**
 * A regular file open for reading whose name can be replaced atomically (reference §2.8): the replacement gets
 * the original's mode bits, owner and group (only when they differ) and every extended attribute before it is
 * fsynced, the name's revision is re-checked, and {@code renameat} publishes it. Not thread-safe.
 */
public interface ReplaceableFile extends ReadableFile {

    /**
     * Replaces the file's name with {@code content}: metadata copy failure → {@code METADATA_PRESERVATION_FAILED},
     * the name's revision no longer {@code expectedRevision} → {@code REVISION_CONFLICT}; in both cases nothing
     * changed. Returns the stat of the new file after the commit.
     */
    FileStat replace(byte[] content, Revision expectedRevision);
}
