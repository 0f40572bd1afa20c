package dev.serverfs.domain.file;

import java.util.Objects;

/**
 * One literal replacement of {@code edit_text_file} (contract reference §2.10): every non-overlapping occurrence
 * of {@code oldText} becomes {@code newText}, and there must be exactly {@code expectedCount} of them.
 */
public record TextEdit(String oldText, String newText, int expectedCount) {

    public TextEdit {
        Objects.requireNonNull(oldText, "oldText");
        Objects.requireNonNull(newText, "newText");
    }
}
