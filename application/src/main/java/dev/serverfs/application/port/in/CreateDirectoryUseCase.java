package dev.serverfs.application.port.in;

import java.util.Objects;

/** {@code create_directory} (contract reference §2.12): exactly one level, never over anything present. */
public interface CreateDirectoryUseCase {

    CreatedDirectory createDirectory(CreateDirectoryCommand command);

    record CreateDirectoryCommand(String workdir, String path) {
        public CreateDirectoryCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
        }
    }

    record CreatedDirectory(String workdir, String path, boolean created, String revision) {}
}
