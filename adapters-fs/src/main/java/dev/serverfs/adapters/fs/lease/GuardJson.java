package dev.serverfs.adapters.fs.lease;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.RecoveryGuard;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.Timestamps;
import java.time.DateTimeException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The guard file format (reference §6.2 plus CONTRACT.md §3.2 {@code provider_pid}, {@code provider_start_time}):
 * one flat JSON object, sorted keys, compact, newline-terminated. Anything unreadable is refused with {@code
 * WORKDIR_RECOVERY_REQUIRED}: an unknown guard must keep the slot closed.
 */
final class GuardJson {
    private GuardJson() {}

    static String write(RecoveryGuard g) {
        JsonValue json = JsonValue.object()
                .put("schema_version", RecoveryGuard.SCHEMA_VERSION)
                .put("slot", g.slot())
                .put("task_id", g.taskId().value())
                .put("runtime", g.runtime())
                .put("workdir_alias", g.workdirAlias())
                .put("correlation_id", CorrelationId.wire(g.correlationId()))
                .put("native_session_id", g.nativeIds().sessionId())
                .put("native_turn_id", g.nativeIds().turnId())
                .put("created_at", Timestamps.format(g.createdAt()))
                .put("updated_at", Timestamps.format(g.updatedAt()))
                .put(
                        "provider_pid",
                        g.provider().<JsonValue>map(p -> JsonValue.of(p.pid())).orElse(JsonValue.JsonNull.INSTANCE))
                .put(
                        "provider_start_time",
                        g.provider()
                                .<JsonValue>map(p -> JsonValue.of(p.startTime()))
                                .orElse(JsonValue.JsonNull.INSTANCE))
                .build();
        return CanonicalJson.write(json) + "\n";
    }

    static RecoveryGuard parse(String text, int expectedSlot) {
        try {
            Map<String, Object> m = new FlatParser(text.strip()).object();
            if (!Long.valueOf(RecoveryGuard.SCHEMA_VERSION).equals(m.get("schema_version"))) {
                throw invalid();
            }
            if (!Long.valueOf(expectedSlot).equals(m.get("slot"))) {
                throw invalid();
            }
            String taskId = string(m, "task_id").orElseThrow(GuardJson::invalid);
            if (!TaskId.isValid(taskId)) {
                throw invalid();
            }
            Optional<Long> pid = number(m, "provider_pid");
            Optional<Long> start = number(m, "provider_start_time");
            Optional<ProviderProcess> process = pid.isPresent() && start.isPresent()
                    ? Optional.of(new ProviderProcess(pid.get(), start.get()))
                    : Optional.empty();
            return new RecoveryGuard(
                    expectedSlot,
                    new TaskId(taskId),
                    string(m, "runtime").orElseThrow(GuardJson::invalid),
                    string(m, "workdir_alias").orElseThrow(GuardJson::invalid),
                    string(m, "correlation_id").map(CorrelationId::new),
                    new NativeIds(string(m, "native_session_id"), string(m, "native_turn_id")),
                    process,
                    Timestamps.parse(string(m, "created_at").orElseThrow(GuardJson::invalid)),
                    Timestamps.parse(string(m, "updated_at").orElseThrow(GuardJson::invalid)));
        } catch (IllegalArgumentException | DateTimeException | IndexOutOfBoundsException e) {
            throw invalid();
        }
    }

    private static Optional<String> string(Map<String, Object> m, String key) {
        return field(m, key, String.class);
    }

    private static Optional<Long> number(Map<String, Object> m, String key) {
        return field(m, key, Long.class);
    }

    /** The value of {@code key} when present; of another type than {@code type}: the guard is invalid. */
    private static <T> Optional<T> field(Map<String, Object> m, String key, Class<T> type) {
        Object v = m.get(key);
        if (v == null) {
            return Optional.empty();
        }
        if (type.isInstance(v)) {
            return Optional.of(type.cast(v));
        }
        throw invalid();
    }

    static ServerFsException invalid() {
        return new ServerFsException(ErrorCode.WORKDIR_RECOVERY_REQUIRED, "the recovery guard is unreadable");
    }

    /** A parser for one flat object of strings, integers, booleans and nulls: all a guard holds. */
    private static final class FlatParser {
        private final String s;
        private int i;

        FlatParser(String s) {
            this.s = s;
        }

        Map<String, Object> object() {
            Map<String, Object> out = new HashMap<>();
            expect('{');
            if (peek() == '}') {
                i++;
                return end(out);
            }
            while (true) {
                String key = string();
                expect(':');
                if (out.containsKey(key)) {
                    throw invalid();
                }
                out.put(key, value());
                char c = s.charAt(i++);
                if (c == '}') {
                    return end(out);
                }
                if (c != ',') {
                    throw invalid();
                }
            }
        }

        private Map<String, Object> end(Map<String, Object> out) {
            if (i != s.length()) {
                throw invalid();
            }
            return out;
        }

        private Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            int start = i;
            if (c == '-') {
                i++;
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start || (i == start + 1 && c == '-')) {
                throw invalid();
            }
            return Long.parseLong(s.substring(start, i));
        }

        private String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return out.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                        case '"', '\\', '/' -> out.append(e);
                        case 'n' -> out.append('\n');
                        case 'r' -> out.append('\r');
                        case 't' -> out.append('\t');
                        case 'b' -> out.append('\b');
                        case 'f' -> out.append('\f');
                        case 'u' -> {
                            out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                            i += 4;
                        }
                        default -> throw invalid();
                    }
                } else if (c < 0x20) {
                    throw invalid();
                } else {
                    out.append(c);
                }
            }
        }

        private char peek() {
            return s.charAt(i);
        }

        private void expect(char c) {
            if (s.charAt(i++) != c) {
                throw invalid();
            }
        }
    }
}
