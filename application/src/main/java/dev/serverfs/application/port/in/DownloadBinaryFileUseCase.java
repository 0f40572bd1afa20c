package dev.serverfs.application.port.in;

import java.util.Objects;

/**
 * {@code download_binary_file} (contract reference §2.14): the exact bytes of one regular file of a workdir that
 * enables binary transfer, read from one held descriptor, with size, MIME type, SHA-256 and revision.
 */
public interface DownloadBinaryFileUseCase {

    DownloadedBinaryFile downloadBinaryFile(DownloadBinaryFileQuery query);

    record DownloadBinaryFileQuery(String workdir, String path) {
        public DownloadBinaryFileQuery {
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
        }
    }

    /** {@code content} is the file's bytes; the caller must not modify it. */
    record DownloadedBinaryFile(
            String workdir, String path, long size, String mimeType, String sha256, String revision, byte[] content) {}
}
