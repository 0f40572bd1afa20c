package dev.serverfs.adapters.mcp;

import java.util.Objects;

/**
 * One MCP resource template (e.g. {@code serverfs://{workdir}/{path}}, reference §2.7). {@code resources/read}
 * asks each registered template in turn whether it {@link #matches} the URI; the first that does reads it, on a
 * virtual thread. A {@link dev.serverfs.domain.error.ServerFsException} becomes JSON-RPC -32602 with message
 * {@code CODE: message}; any other exception is -32603 with a generic message.
 */
public interface McpResourceTemplate {

    Spec spec();

    boolean matches(String uri);

    Text read(String uri);

    /** What {@code resources/templates/list} publishes. */
    record Spec(String uriTemplate, String name, String description, String mimeType) {
        public Spec {
            Objects.requireNonNull(uriTemplate, "uriTemplate");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }

    /** The text contents of one read resource. */
    record Text(String uri, String mimeType, String text) {
        public Text {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(text, "text");
        }

        @Override
        public String toString() {
            // Never print file contents.
            return "Text[uri=…, mimeType=" + mimeType + ", chars=" + text.length() + "]";
        }
    }
}
