package dev.serverfs.application.port.in;

/**
 * The resource template {@code serverfs://{workdir}/{+path}} (contract reference §2.7): a whole text file within
 * one read budget, or {@code RESOURCE_TOO_LARGE}; unexpected failures are {@code READ_FAILED}.
 */
public interface ReadResourceUseCase {

    /**
     * Template URI, resource name and MIME type of reference §2.7. The path is a reserved expansion ({@code +},
     * RFC 6570 §3.2.3) so that the SDKs' template matchers accept a nested path, slashes included.
     */
    String URI_TEMPLATE = "serverfs://{workdir}/{+path}";

    String NAME = "ServerFS file";
    String MIME_TYPE = "text/plain";

    String readResource(String workdir, String path);
}
