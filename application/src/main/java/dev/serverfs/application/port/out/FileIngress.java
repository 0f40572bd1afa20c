package dev.serverfs.application.port.out;

/**
 * The MCP side of file ingress (v0.5 plan §8, contract reference §8): fetches the bytes behind a ChatGPT
 * {@code download_url} through the isolated sidecar, never more than {@code maxBytes}. Called by the upload use
 * case after authorisation and path checks and before the mutation lock and writer lease (reference §2.15).
 * Thread-safe.
 */
public interface FileIngress {

    /**
     * Returns the whole file, at most {@code maxBytes} long. Fails with a {@code ServerFsException}:
     * {@code BINARY_PAYLOAD_TOO_LARGE} when the file is larger, {@code FILE_INGRESS_UNAVAILABLE} when the sidecar
     * cannot be reached or times out, the sidecar's own code (for example {@code FILE_INGRESS_HOST_NOT_ALLOWED}),
     * or {@code FILE_INGRESS_FAILED} when it answers without a valid code. Messages never contain the URL.
     */
    byte[] fetch(String downloadUrl, long maxBytes);
}
