package dev.serverfs.application.port.in;

import dev.serverfs.domain.file.Revision;
import java.util.Objects;

/** {@code delete_file} (contract reference §2.11): one regular file, revision-guarded, permanent. */
public interface DeleteFileUseCase {

    DeletedFile deleteFile(DeleteFileCommand command);

    record DeleteFileCommand(String workdir, String path, Revision expectedRevision) {
        public DeleteFileCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(expectedRevision, "expectedRevision");
        }
    }

    record DeletedFile(String workdir, String path, boolean deleted, long bytesDeleted, String revisionDeleted) {}
}
