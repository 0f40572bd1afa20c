package dev.serverfs.application.port.in;

import java.util.List;
import java.util.Objects;

/** {@code find_files} (contract reference §2.3): regular files whose basename matches a glob. */
public interface FindFilesUseCase {

    FoundFiles findFiles(FindFilesQuery query);

    /** Inputs; {@code limit} null means the configured default. */
    record FindFilesQuery(String workdir, String pattern, String path, Integer limit) {
        public FindFilesQuery {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(pattern, "pattern");
        }
    }

    /** Workdir-relative paths in traversal order; {@code truncated} when the limit or the walk cap was reached. */
    record FoundFiles(List<String> paths, int returned, boolean truncated) {
        public FoundFiles {
            paths = List.copyOf(paths);
        }
    }
}
