package dev.serverfs.domain.task;

import dev.serverfs.domain.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where a final response goes (reference §3.16): inline up to {@code max_final_response_bytes}, spooled up to
 * {@code max_spooled_result_bytes} with a UTF-8-safe preview of {@code result_preview_bytes}, else too large
 * (task {@code failed} with {@code AGENT_RESULT_TOO_LARGE}).
 */
public sealed interface ResultPlacement {

    record Inline(TaskResult result) implements ResultPlacement {}

    /** The whole text must be spooled before the task is marked succeeded with {@code result}. */
    record Spool(TaskResult result, byte[] utf8) implements ResultPlacement {}

    record TooLarge(long sizeBytes) implements ResultPlacement {}

    static ResultPlacement of(String finalResponse, AgentLimits limits) {
        byte[] bytes = finalResponse.getBytes(StandardCharsets.UTF_8);
        String sha = CanonicalJson.sha256Hex(bytes);
        if (bytes.length <= limits.maxFinalResponseBytes()) {
            return new Inline(new TaskResult(finalResponse, ResultStorage.INLINE, bytes.length, sha));
        }
        if (bytes.length <= limits.maxSpooledResultBytes()) {
            int cut = Utf8.safePrefixLength(bytes, limits.resultPreviewBytes());
            String preview = new String(Arrays.copyOf(bytes, cut), StandardCharsets.UTF_8);
            return new Spool(new TaskResult(preview, ResultStorage.SPOOL, bytes.length, sha), bytes);
        }
        return new TooLarge(bytes.length);
    }
}
