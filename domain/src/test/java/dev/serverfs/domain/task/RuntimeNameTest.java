package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class RuntimeNameTest {

    @Test
    void wire_names_are_exact_lower_case_text() {
        for (String wire : new String[] {"codex", "claude", "fake", "a", "x-1_y"}) {
            assertEquals(Optional.of(RuntimeName.of(wire)), RuntimeName.fromWire(wire));
            assertEquals(wire, RuntimeName.of(wire).wire());
            assertEquals(wire, RuntimeName.of(wire).toString());
        }
        assertEquals(RuntimeName.of("codex"), new RuntimeName("codex"));
    }

    @Test
    void malformed_names_are_no_runtime_names() {
        for (String wire : new String[] {"Codex", "", " codex", "codex ", "1codex", "a".repeat(33), "co/dex"}) {
            assertEquals(Optional.empty(), RuntimeName.fromWire(wire), wire);
            assertThrows(IllegalArgumentException.class, () -> RuntimeName.of(wire), wire);
        }
    }
}
