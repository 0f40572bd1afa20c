package dev.serverfs.application.port.out;

import dev.serverfs.domain.file.FileStat;
import java.util.List;
import java.util.Optional;

/**
 * One open directory, scanned once: the names of its entries (never {@code .} or {@code ..}, in no particular
 * order) and an {@code lstat} of any of them relative to the same open directory, so a caller can {@code lstat}
 * only the entries it returns. Not thread-safe; close it exactly once.
 */
public interface DirectoryListing extends AutoCloseable {

    /** The names found by the scan. */
    List<String> names();

    /** The entry's {@code lstat}, never following a symlink; empty when it vanished since the scan. */
    Optional<FileStat> lstat(String name);

    @Override
    void close();
}
