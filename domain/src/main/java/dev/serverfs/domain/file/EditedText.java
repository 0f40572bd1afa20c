package dev.serverfs.domain.file;

import java.util.Objects;

/**
 * The outcome of applying edits in memory: the bytes to publish (BOM re-prepended when the original had one),
 * the number of edits applied and the unified diff of the visible text (BOM hidden).
 */
public record EditedText(byte[] content, int editsApplied, String diff) {

    public EditedText {
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(diff, "diff");
    }
}
