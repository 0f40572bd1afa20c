package dev.serverfs.adapters.mcp;

import java.util.Objects;

/**
 * The contents of one resource as {@code resources/read} returns them or a {@link ContentBlock.Resource} embeds them
 * (spec {@code TextResourceContents} / {@code BlobResourceContents}).
 */
public sealed interface ResourceContents {

    String uri();

    String mimeType();

    /** Text contents. */
    record Text(String uri, String mimeType, String text) implements ResourceContents {
        public Text {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(text, "text");
        }
    }

    /** Binary contents, base64-encoded only as the answer is written; {@code data} is never changed afterwards. */
    record Blob(String uri, String mimeType, byte[] data) implements ResourceContents {
        public Blob {
            Objects.requireNonNull(uri, "uri");
            Objects.requireNonNull(mimeType, "mimeType");
            Objects.requireNonNull(data, "data");
        }
    }
}
