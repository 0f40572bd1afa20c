package dev.serverfs.domain.file;

import java.util.Objects;

/**
 * One page of a text file (contract reference §2.5): physical lines {@code startLine..endLine} with their
 * terminators, the UTF-8 byte count of {@code content}, and whether more lines follow. {@code endLine} is
 * {@code startLine - 1} when no line was returned.
 */
public record TextPage(long startLine, long endLine, String content, long bytesReturned, boolean hasMore) {

    public TextPage {
        Objects.requireNonNull(content, "content");
        if (endLine < startLine - 1) {
            throw new IllegalArgumentException("endLine before startLine - 1");
        }
    }

    /** {@code next_start_line}: {@code endLine + 1} when more lines follow, otherwise null. */
    public Long nextStartLine() {
        return hasMore ? endLine + 1 : null;
    }
}
