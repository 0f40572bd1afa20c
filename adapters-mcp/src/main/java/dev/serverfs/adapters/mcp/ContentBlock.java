package dev.serverfs.adapters.mcp;

import java.util.Objects;

/**
 * One MCP {@code ContentBlock} (spec 2025-11-25 and 2026-07-28 schema): text, an image or audio clip (bytes,
 * base64-encoded only as the answer is written), or an embedded resource. A tool result ({@link
 * ToolResult#withContent}) or a prompt message ({@link PromptDefinition.Message}) carries them.
 */
public sealed interface ContentBlock {

    /** A {@code TextContent} block. */
    record Text(String text) implements ContentBlock {
        public Text {
            Objects.requireNonNull(text, "text");
        }
    }

    /** An {@code ImageContent} block; {@code data} is never changed afterwards. */
    record Image(byte[] data, String mimeType) implements ContentBlock {
        public Image {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }

    /** An {@code AudioContent} block; {@code data} is never changed afterwards. */
    record Audio(byte[] data, String mimeType) implements ContentBlock {
        public Audio {
            Objects.requireNonNull(data, "data");
            Objects.requireNonNull(mimeType, "mimeType");
        }
    }

    /** An {@code EmbeddedResource} block. */
    record Resource(ResourceContents resource) implements ContentBlock {
        public Resource {
            Objects.requireNonNull(resource, "resource");
        }
    }
}
