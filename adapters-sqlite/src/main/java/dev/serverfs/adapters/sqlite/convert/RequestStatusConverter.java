package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.RequestStatus;

/** {@code pending_requests.status}: {@code pending}, {@code resolved} or {@code stale}. */
public final class RequestStatusConverter extends TextColumnConverter<RequestStatus> {
    public RequestStatusConverter() {
        super(RequestStatus.class, "request status");
    }

    @Override
    RequestStatus decode(String stored) {
        return RequestStatus.fromWire(stored).orElseThrow(IllegalArgumentException::new);
    }

    @Override
    String encode(RequestStatus value) {
        return value.wire();
    }
}
