package dev.serverfs.adapters.sqlite.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RequestStatus;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jooq.Converter;
import org.junit.jupiter.api.Test;

/** Every converter writes the contract's text and refuses text no ServerFS wrote with a storage code. */
class TextColumnConverterTest {

    @Test
    void each_value_is_stored_as_its_wire_text_and_read_back() {
        Map<Converter<String, ?>, List<?>> values = Map.of(
                new TaskStatusConverter(), List.of(TaskStatus.values()),
                new TaskProfileConverter(), List.of(TaskProfile.values()),
                new RuntimeNameConverter(),
                        Stream.of("codex", "claude", "fake")
                                .map(w -> RuntimeName.fromWire(w).orElseThrow())
                                .toList(),
                new RequestStatusConverter(), List.of(RequestStatus.values()),
                new InteractionKindConverter(), List.of(InteractionKind.values()),
                new TaskIdConverter(), List.of(TaskId.fromHex("0123456789abcdef01234567")),
                new RequestIdConverter(), List.of(RequestId.fromHex("0123456789abcdef01234567")));
        values.forEach((converter, domain) -> domain.forEach(value -> roundTrip(converter, value)));
        assertEquals("waiting_for_approval", new TaskStatusConverter().to(TaskStatus.WAITING_FOR_APPROVAL));
        assertEquals("workspace-write", new TaskProfileConverter().to(TaskProfile.WORKSPACE_WRITE));
        assertEquals(
                "codex",
                new RuntimeNameConverter().to(RuntimeName.fromWire("codex").orElseThrow()));
        assertEquals(
                "agt_0123456789abcdef01234567", new TaskIdConverter().to(TaskId.fromHex("0123456789abcdef01234567")));
    }

    @Test
    void text_no_serverfs_wrote_is_a_storage_failure_that_does_not_echo_it() {
        List<Converter<String, ?>> converters = List.of(
                new TaskStatusConverter(),
                new TaskProfileConverter(),
                new RuntimeNameConverter(),
                new RequestStatusConverter(),
                new InteractionKindConverter(),
                new TaskIdConverter(),
                new RequestIdConverter(),
                new InstantConverter());
        for (Converter<String, ?> converter : converters) {
            ServerFsException e = assertThrows(ServerFsException.class, () -> converter.from("secret-ish text"));
            assertEquals(ErrorCode.AGENT_RESULT_STORAGE_ERROR, e.code());
            assertFalse(e.getMessage().contains("secret-ish"), e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static <U> void roundTrip(Converter<String, U> converter, Object value) {
        U typed = (U) value;
        assertEquals(typed, converter.from(converter.to(typed)));
    }
}
