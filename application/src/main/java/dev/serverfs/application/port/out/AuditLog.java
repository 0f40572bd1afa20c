package dev.serverfs.application.port.out;

import dev.serverfs.domain.error.ErrorCode;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The audit trail (contract reference §2.0 "Audit", §12): exactly one {@code tool_call} event per tool call.
 * An event carries only names, counts, flags and workdir-relative paths; contents, edit text, queries, prompts,
 * answers, URLs, file ids, host paths and secrets can not be expressed in it.
 */
public interface AuditLog {

    /** Records one finished tool call; never throws. */
    void toolCall(ToolCall event);

    /**
     * One tool call. {@code counters} are the per-tool numbers and flags of reference §2.0, keyed by a name from
     * {@link #COUNTER_NAMES}; values are numbers, booleans or short tokens (a revision, a MIME type, a type name).
     */
    record ToolCall(
            String tool,
            Duration duration,
            boolean success,
            Optional<String> workdir,
            Optional<String> path,
            Optional<String> errorCode,
            Map<String, Object> counters) {

        private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]{2,}");
        private static final int MAX_TOKEN = 256;

        public ToolCall {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(duration, "duration");
            Objects.requireNonNull(workdir, "workdir");
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(errorCode, "errorCode");
            errorCode.ifPresent(c -> {
                if (!CODE.matcher(c).matches()) {
                    throw new IllegalArgumentException("error code must be an upper-case code");
                }
            });
            if (success && errorCode.isPresent()) {
                throw new IllegalArgumentException("a successful call has no error code");
            }
            Map<String, Object> copy = new LinkedHashMap<>();
            counters.forEach((name, value) -> {
                if (!COUNTER_NAMES.contains(name)) {
                    throw new IllegalArgumentException("not an audit counter: " + name);
                }
                boolean allowed = value instanceof Number
                        || value instanceof Boolean
                        || (value instanceof String s && s.length() <= MAX_TOKEN);
                if (!allowed) {
                    throw new IllegalArgumentException("audit counter " + name + " must be a number, flag or token");
                }
                copy.put(name, value);
            });
            counters = Collections.unmodifiableMap(copy);
        }

        /** A successful call. */
        public static ToolCall succeeded(
                String tool,
                Duration duration,
                Optional<String> workdir,
                Optional<String> path,
                Map<String, Object> counters) {
            return new ToolCall(tool, duration, true, workdir, path, Optional.empty(), counters);
        }

        /** A failed call with its stable code (a tool failure's {@link ErrorCode} or a transport-level code). */
        public static ToolCall failed(
                String tool, Duration duration, Optional<String> workdir, Optional<String> path, String errorCode) {
            return new ToolCall(tool, duration, false, workdir, path, Optional.of(errorCode), Map.of());
        }

        /** A failed call with a tool-failure code. */
        public static ToolCall failed(
                String tool, Duration duration, Optional<String> workdir, Optional<String> path, ErrorCode code) {
            return failed(tool, duration, workdir, path, code.wire());
        }
    }

    /**
     * The per-tool counter names of reference §2.0 (plus {@code dry_run}, CONTRACT.md §4). Append a name here when
     * a tool needs a new counter; never log anything that is not a count, a flag or a short token.
     */
    Set<String> COUNTER_NAMES = Set.of(
            "returned",
            "has_more",
            "truncated",
            "bytes_returned",
            "start_line",
            "end_line",
            "type",
            "bytes_written",
            "revision",
            "edit_count",
            "bytes_before",
            "bytes_after",
            "bytes_deleted",
            "mime_type",
            "dry_run",
            // Agent tools (reference §3): metadata only, never prompt, message or answer text.
            "schema_version",
            "runtime",
            "profile",
            "correlation_id",
            "idempotency_key",
            "task_id",
            "request_id",
            "status",
            "decision",
            "message_bytes");
}
