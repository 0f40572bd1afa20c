package dev.serverfs.application.port.in;

import dev.serverfs.domain.file.Revision;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code upload_binary_file} (contract reference §2.15, v0.5 plan §3-§5): exact bytes from exactly one source, a
 * strict base64 string or a ChatGPT {@code file} parameter fetched through the ingress sidecar, published as a new
 * file (create-only) or as the replacement of one existing regular file at {@code expected_revision}.
 */
public interface UploadBinaryFileUseCase {

    UploadedBinaryFile uploadBinaryFile(UploadBinaryFileCommand command);

    /** A ChatGPT/OpenAI file parameter; its id and name never select the destination and are never logged. */
    record OpenAiFile(String downloadUrl, String fileId, Optional<String> mimeType, Optional<String> fileName) {
        public OpenAiFile {
            Objects.requireNonNull(downloadUrl, "downloadUrl");
            Objects.requireNonNull(fileId, "fileId");
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(fileName, "fileName");
        }

        @Override
        public String toString() {
            return "OpenAiFile[redacted]";
        }
    }

    record UploadBinaryFileCommand(
            String workdir,
            String path,
            Optional<String> dataBase64,
            Optional<OpenAiFile> file,
            boolean overwrite,
            Optional<Revision> expectedRevision) {
        public UploadBinaryFileCommand {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(dataBase64, "dataBase64");
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(expectedRevision, "expectedRevision");
        }

        @Override
        public String toString() {
            return "UploadBinaryFileCommand[workdir=" + workdir + ", path=" + path + ", overwrite=" + overwrite + "]";
        }
    }

    /** {@code revisionBefore} is present only for an overwrite; {@code mimeType} is the target name's guess (audit). */
    record UploadedBinaryFile(
            String workdir,
            String path,
            boolean created,
            boolean replaced,
            long bytesWritten,
            String sha256,
            Optional<String> revisionBefore,
            String revision,
            String mimeType) {}
}
