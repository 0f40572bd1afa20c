package dev.serverfs.application.port.in;

import java.util.Objects;

/** {@code create_text_file} (contract reference §2.9): a new UTF-8 text file, byte-exact, never overwriting. */
public interface CreateTextFileUseCase {

    CreatedTextFile createTextFile(CreateTextFileCommand command);

    record CreateTextFileCommand(String workdir, String path, String content) {
        public CreateTextFileCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(content, "content");
        }
    }

    record CreatedTextFile(String workdir, String path, boolean created, long bytesWritten, String revision) {}
}
