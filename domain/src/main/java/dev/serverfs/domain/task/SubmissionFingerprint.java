package dev.serverfs.domain.task;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The idempotency fingerprint of a submission (v0.7.3 §3.2, reference §3.15): SHA-256 of the canonical JSON of
 * exactly {@code runtime}, {@code workdir}, normalized {@code path}, {@code profile}, {@code prompt_sha256}
 * (SHA-256 of the exact UTF-8 prompt bytes, so the raw prompt is never stored), {@code continue_from_task_id}
 * and {@code correlation_id} (absent → JSON null). Version 1 of the encoding; golden vectors in the tests.
 */
public final class SubmissionFingerprint {
    private SubmissionFingerprint() {}

    public static String of(
            RuntimeName runtime,
            String workdir,
            String normalizedPath,
            TaskProfile profile,
            String prompt,
            Optional<TaskId> continueFromTaskId,
            Optional<CorrelationId> correlationId) {
        JsonValue inputs = JsonValue.object()
                .put("runtime", runtime.wire())
                .put("workdir", workdir)
                .put("path", normalizedPath)
                .put("profile", profile.wire())
                .put("prompt_sha256", CanonicalJson.sha256Hex(prompt.getBytes(StandardCharsets.UTF_8)))
                .put("continue_from_task_id", continueFromTaskId.map(TaskId::value))
                .put("correlation_id", CorrelationId.wire(correlationId))
                .build();
        return CanonicalJson.sha256(inputs);
    }
}
