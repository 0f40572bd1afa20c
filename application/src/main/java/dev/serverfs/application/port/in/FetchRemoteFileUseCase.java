package dev.serverfs.application.port.in;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Objects;

/**
 * The ingress sidecar's one operation, {@code POST /fetch} (v0.5 plan §7–§8, contract reference §8): fetch a
 * download URL under the SSRF rules, following validated redirects, within the effective byte limit.
 */
public interface FetchRemoteFileUseCase {

    /**
     * Returns the file's bytes, or fails with one of the {@code FILE_INGRESS_*} codes or
     * {@code BINARY_PAYLOAD_TOO_LARGE}.
     */
    byte[] fetch(FetchRemoteFileCommand command);

    /**
     * A fetch request as the MCP side sends it. {@code toString} hides the URL (never log it).
     *
     * @param downloadUrl the ChatGPT {@code download_url}, not yet validated
     * @param maxBytes the caller's limit, positive; the sidecar applies {@code min(maxBytes, its own ceiling)}
     */
    record FetchRemoteFileCommand(String downloadUrl, long maxBytes) {
        public FetchRemoteFileCommand {
            Objects.requireNonNull(downloadUrl, "downloadUrl");
            if (maxBytes <= 0) {
                throw new ServerFsException(ErrorCode.FILE_INGRESS_BAD_REQUEST, "max_bytes must be positive");
            }
        }

        @Override
        public String toString() {
            return "FetchRemoteFileCommand[maxBytes=" + maxBytes + "]";
        }
    }
}
