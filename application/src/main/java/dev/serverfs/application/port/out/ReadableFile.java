package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;

/**
 * An open regular file. {@link #stat()} is a fresh {@code fstat} on the open descriptor each call, so a caller
 * can compare revisions before and after reading (reference §2.5). Not thread-safe; close it exactly once.
 */
public interface ReadableFile extends AutoCloseable {

    FileStat stat();

    /** Reads up to {@code length} bytes; returns the count, 0 only at end of file. */
    int read(byte[] buffer, int offset, int length);

    @Override
    void close();
}
