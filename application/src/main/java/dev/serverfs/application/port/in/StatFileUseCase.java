package dev.serverfs.application.port.in;

import java.util.Objects;

/** {@code stat_file} (contract reference §2.6): {@code lstat} of one path, symlinks reported, never followed. */
public interface StatFileUseCase {

    FileStatus statFile(StatFileQuery query);

    record StatFileQuery(String workdir, String path) {
        public StatFileQuery {
            Objects.requireNonNull(workdir, "workdir");
        }
    }

    /** {@code size} and {@code mimeType} only for regular files (else null); {@code revision} for any type. */
    record FileStatus(
            String workdir, String path, String type, Long size, String modifiedAt, String mimeType, String revision) {}
}
