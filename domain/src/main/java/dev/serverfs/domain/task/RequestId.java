package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Objects;
import java.util.regex.Pattern;

/** A pending-request id: {@code req_} followed by 24 lowercase hex digits (reference §3.14). */
public record RequestId(String value) {
    private static final Pattern SHAPE = Pattern.compile("req_[0-9a-f]{24}");

    public RequestId {
        Objects.requireNonNull(value, "value");
        if (!SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("invalid request id");
        }
    }

    public static RequestId fromHex(String hex24) {
        return new RequestId("req_" + hex24);
    }

    public static boolean isValid(String value) {
        return value != null && SHAPE.matcher(value).matches();
    }

    /** Parses caller input; a malformed id is simply unknown ({@code REQUEST_NOT_FOUND}). */
    public static RequestId parse(String value) {
        if (!isValid(value)) {
            throw new ServerFsException(ErrorCode.REQUEST_NOT_FOUND, "unknown request");
        }
        return new RequestId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
