package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The final response of a succeeded task (reference §3.16): {@code finalResponse} is the whole text when inline,
 * or a UTF-8-safe preview when spooled; size and SHA-256 always describe the whole UTF-8 text.
 */
public record TaskResult(String finalResponse, ResultStorage storage, long sizeBytes, String sha256) {
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");

    public TaskResult {
        Objects.requireNonNull(finalResponse, "finalResponse");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(sha256, "sha256");
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("sizeBytes must not be negative");
        }
        if (!SHA256.matcher(sha256).matches()) {
            throw new IllegalArgumentException("sha256 must be 64 lowercase hex digits");
        }
    }

    /** True iff the whole text must be read with {@code read_agent_task_result}. */
    public boolean retrievable() {
        return storage == ResultStorage.SPOOL;
    }
}
