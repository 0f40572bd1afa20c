package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RuntimeNameTest {

    @Test
    void wire_names_are_exact_and_nothing_else_is_a_runtime() {
        for (RuntimeName name : RuntimeName.values()) {
            assertEquals(Optional.of(name), RuntimeName.fromWire(name.wire()));
            assertEquals(name.wire(), name.toString());
        }
        assertEquals(Optional.empty(), RuntimeName.fromWire("Codex"));
        assertEquals(Optional.empty(), RuntimeName.fromWire("qoder"));
        assertEquals(Optional.empty(), RuntimeName.fromWire(""));
    }

    @Test
    void only_the_fake_is_test_only() {
        assertTrue(RuntimeName.FAKE.testOnly());
        assertFalse(RuntimeName.CODEX.testOnly());
        assertFalse(RuntimeName.CLAUDE.testOnly());
    }
}
