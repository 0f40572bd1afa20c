package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.InteractionKind;

/** {@code pending_requests.kind}: {@code approval} or {@code question}. */
public final class InteractionKindConverter extends TextColumnConverter<InteractionKind> {
    public InteractionKindConverter() {
        super(InteractionKind.class, "request kind");
    }

    @Override
    InteractionKind decode(String stored) {
        return InteractionKind.fromWire(stored).orElseThrow(IllegalArgumentException::new);
    }

    @Override
    String encode(InteractionKind value) {
        return value.wire();
    }
}
