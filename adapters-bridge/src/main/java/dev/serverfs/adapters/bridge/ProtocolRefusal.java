package dev.serverfs.adapters.bridge;

import dev.serverfs.domain.error.ErrorCode;
import java.util.Objects;
import java.util.Optional;

/**
 * A request line the protocol refuses before any dispatch (reference §4.1): the protocol error code and the request
 * id to echo, when the line carried a readable one.
 */
final class ProtocolRefusal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final transient Optional<String> requestId;

    ProtocolRefusal(ErrorCode code, String message, Optional<String> requestId) {
        super(Objects.requireNonNull(message, "message"), null, false, false);
        this.code = Objects.requireNonNull(code, "code");
        this.requestId = Objects.requireNonNull(requestId, "requestId");
    }

    ErrorCode code() {
        return code;
    }

    Optional<String> requestId() {
        return requestId;
    }
}
