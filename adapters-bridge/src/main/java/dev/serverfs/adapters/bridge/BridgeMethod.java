package dev.serverfs.adapters.bridge;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/** The ten methods of protocol v1 with their required and optional params (reference §4.2; unknown keys rejected). */
enum BridgeMethod {
    RUNTIME_LIST("runtime.list", Set.of(), Set.of()),
    TASK_SUBMIT(
            "task.submit",
            Set.of("runtime", "workdir", "path", "profile", "prompt"),
            Set.of("continue_from_task_id", "correlation_id", "idempotency_key")),
    TASK_GET("task.get", Set.of("task_id"), Set.of()),
    TASK_EVENTS("task.events", Set.of("task_id"), Set.of("after_event_id", "limit")),
    TASK_RESULT_READ("task.result.read", Set.of("task_id"), Set.of("offset_bytes", "max_bytes")),
    TASK_APPROVAL_RESPOND(
            "task.approval.respond", Set.of("task_id", "request_id", "decision"), Set.of("granted_permission_ids")),
    TASK_QUESTION_ANSWER("task.question.answer", Set.of("task_id", "request_id", "answers"), Set.of()),
    TASK_MESSAGE_SEND("task.message.send", Set.of("task_id", "message"), Set.of()),
    TASK_CANCEL("task.cancel", Set.of("task_id"), Set.of()),
    /** [v0.9] model discovery: accepted and validated; this build answers {@code unsupported} (CONTRACT.md §3.6). */
    RUNTIME_MODELS("runtime.models", Set.of("runtime"), Set.of("workdir", "task_prompt", "path", "profile"));

    private final String wire;
    private final Set<String> required;
    private final Set<String> optional;

    BridgeMethod(String wire, Set<String> required, Set<String> optional) {
        this.wire = wire;
        this.required = required;
        this.optional = optional;
    }

    String wire() {
        return wire;
    }

    Set<String> required() {
        return required;
    }

    boolean allows(String param) {
        return required.contains(param) || optional.contains(param);
    }

    static Optional<BridgeMethod> fromWire(String value) {
        return Arrays.stream(values()).filter(m -> m.wire.equals(value)).findFirst();
    }
}
