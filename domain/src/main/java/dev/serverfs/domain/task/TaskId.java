package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Objects;
import java.util.regex.Pattern;

/** A task id: {@code agt_} followed by 24 lowercase hex digits (reference §5). */
public record TaskId(String value) {
    private static final Pattern SHAPE = Pattern.compile("agt_[0-9a-f]{24}");

    public TaskId {
        Objects.requireNonNull(value, "value");
        if (!SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("invalid task id");
        }
    }

    /** Builds the id from 24 lowercase hex digits produced by an injected generator. */
    public static TaskId fromHex(String hex24) {
        return new TaskId("agt_" + hex24);
    }

    public static boolean isValid(String value) {
        return value != null && SHAPE.matcher(value).matches();
    }

    /** Parses caller input; a malformed id is simply unknown ({@code AGENT_TASK_NOT_FOUND}). */
    public static TaskId parse(String value) {
        if (!isValid(value)) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "unknown task");
        }
        return new TaskId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
