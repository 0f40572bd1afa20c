package dev.serverfs.application.port.in;

import dev.serverfs.domain.file.Revision;
import java.util.Objects;

/** {@code delete_directory} (contract reference §2.13): a physically empty directory, revision-guarded. */
public interface DeleteDirectoryUseCase {

    DeletedDirectory deleteDirectory(DeleteDirectoryCommand command);

    record DeleteDirectoryCommand(String workdir, String path, Revision expectedRevision) {
        public DeleteDirectoryCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(expectedRevision, "expectedRevision");
        }
    }

    record DeletedDirectory(String workdir, String path, boolean deleted, String revisionDeleted) {}
}
