package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.RequestId;

/** Every request id column ({@code req_} and 24 hex digits). */
public final class RequestIdConverter extends TextColumnConverter<RequestId> {
    public RequestIdConverter() {
        super(RequestId.class, "request id");
    }

    @Override
    RequestId decode(String stored) {
        return new RequestId(stored);
    }

    @Override
    String encode(RequestId value) {
        return value.value();
    }
}
