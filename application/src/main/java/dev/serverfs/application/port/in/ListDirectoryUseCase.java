package dev.serverfs.application.port.in;

import java.util.List;
import java.util.Objects;

/** {@code list_directory} (contract reference §2.2): one sorted, filtered page of a directory. */
public interface ListDirectoryUseCase {

    DirectoryPage listDirectory(ListDirectoryQuery query);

    /** Inputs; {@code offset} and {@code limit} null mean the defaults (0 and the configured list limit). */
    record ListDirectoryQuery(String workdir, String path, Integer offset, Integer limit) {
        public ListDirectoryQuery {
            Objects.requireNonNull(workdir, "workdir");
        }
    }

    /** Output fields of reference §2.2; {@code path} echoes the input. */
    record DirectoryPage(
            String workdir, String path, List<Entry> entries, int offset, int limit, int returned, boolean hasMore) {
        public DirectoryPage {
            entries = List.copyOf(entries);
        }
    }

    /** One entry: {@code size} only for files (else null); {@code type} is the wire name. */
    record Entry(String name, String path, String type, Long size, String modifiedAt) {}
}
