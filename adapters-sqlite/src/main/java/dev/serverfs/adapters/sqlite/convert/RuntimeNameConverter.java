package dev.serverfs.adapters.sqlite.convert;

import dev.serverfs.domain.task.RuntimeName;

/** {@code tasks.runtime}: the runtime's wire name ({@code codex}). */
public final class RuntimeNameConverter extends TextColumnConverter<RuntimeName> {
    public RuntimeNameConverter() {
        super(RuntimeName.class, "task runtime");
    }

    @Override
    RuntimeName decode(String stored) {
        return RuntimeName.fromWire(stored).orElseThrow(IllegalArgumentException::new);
    }

    @Override
    String encode(RuntimeName value) {
        return value.wire();
    }
}
