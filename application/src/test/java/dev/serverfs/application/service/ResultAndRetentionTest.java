package dev.serverfs.application.service;

import static dev.serverfs.application.service.AgentHarness.assertCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase.EventPage;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskStatus;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ResultAndRetentionTest {
    private final AgentHarness h = new AgentHarness();

    @AfterEach
    void close() {
        h.close();
    }

    private Task finishedWith(String text) throws Exception {
        h.fake.turn = (r, c) -> new TurnOutcome(text, NativeIds.NONE);
        Task t = h.submitted("complete:", Optional.empty());
        Task done = h.awaitTask(t.id(), Task::isTerminal);
        h.awaitDrained(t.id());
        return done;
    }

    @Test
    void the_result_and_the_events_name_no_host_directory_but_the_workdir_as_workdir() throws Exception {
        String mounts = "/srv/serverfs/docs /srv/serverfs/docs/src /var/lib/serverfs/provider-homes/ab/.codex"
                + " /srv/home/.codex /srv/serverfs/notes: /srv/serverfs/docs-old /usr/bin";
        h.fake.turn = (r, c) -> {
            c.event("agent.message", JsonValue.object().put("text", mounts).build());
            return new TurnOutcome(mounts, NativeIds.NONE);
        };
        Task t = h.submitted("complete:", Optional.empty());
        Task done = h.awaitTask(t.id(), Task::isTerminal);
        h.awaitDrained(t.id());
        String redacted = "<workdir> <workdir>/src <outside-workdir> <outside-workdir> <outside-workdir>:"
                + " <outside-workdir> /usr/bin";
        assertEquals(redacted, done.result().orElseThrow().finalResponse());
        assertTrue(
                h.events.readEvents(t.id(), 0, 100).events().stream()
                        .anyMatch(e -> e.payloadJson().equals("{\"text\":\"" + redacted + "\"}")),
                "the event's text is redacted alike");
    }

    @Test
    void small_results_are_inline_and_not_retrievable() throws Exception {
        Task t = finishedWith("short answer");
        assertEquals(ResultStorage.INLINE, t.result().orElseThrow().storage());
        assertCode(ErrorCode.AGENT_RESULT_NOT_RETRIEVABLE, () -> h.result.readResult(t.id(), 0, 100));
    }

    @Test
    void large_results_are_spooled_and_read_back_exactly_in_chunks() throws Exception {
        String text = "é😀x".repeat(60_000); // 420,000 bytes
        Task t = finishedWith(text);
        assertEquals(ResultStorage.SPOOL, t.result().orElseThrow().storage());
        assertTrue(h.spool.contains(t.id()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long offset = 0;
        boolean eof = false;
        while (!eof) {
            ResultRead read = h.result.readResult(t.id(), offset, 65_536);
            out.writeBytes(read.chunk().text().getBytes(StandardCharsets.UTF_8));
            offset = read.chunk().nextOffsetBytes();
            eof = read.chunk().eof();
        }
        assertEquals(text, out.toString(StandardCharsets.UTF_8));
        assertCode(ErrorCode.INVALID_RESULT_OFFSET, () -> h.result.readResult(t.id(), 1, 100));
        assertTrue(h.eventTypes(t.id()).contains("task.result_spooled"));
    }

    @Test
    void results_above_eight_mebibytes_fail_the_task() throws Exception {
        Task t = finishedWith("a".repeat(8_388_609));
        assertEquals(TaskStatus.FAILED, t.status());
        assertEquals(ErrorCode.AGENT_RESULT_TOO_LARGE, t.failure().orElseThrow().code());
        assertFalse(h.leases.isHeld(1));
    }

    @Test
    void events_page_with_a_cursor() throws Exception {
        Task t = finishedWith("ok");
        EventPage first = h.events.readEvents(t.id(), 0, 1);
        assertEquals(1, first.events().size());
        EventPage rest = h.events.readEvents(t.id(), first.nextAfterEventId(), 100);
        assertEquals(h.eventTypes(t.id()).size() - 1, rest.events().size());
        EventPage none = h.events.readEvents(t.id(), rest.nextAfterEventId(), 100);
        assertEquals(rest.nextAfterEventId(), none.nextAfterEventId());
        assertCode(ErrorCode.INVALID_LIMIT, () -> h.events.readEvents(t.id(), 0, 501));
        assertCode(ErrorCode.INVALID_LIMIT, () -> h.events.readEvents(t.id(), -1, 10));
        assertEquals(Optional.of(new CorrelationId("conv-1")), first.correlationId());
    }

    @Test
    void retention_gc_removes_old_terminal_tasks_at_submit_and_frees_their_key() throws Exception {
        h.fake.turn = (r, c) -> new TurnOutcome("a".repeat(300_000), NativeIds.NONE);
        Task old = h.submitted("p", Optional.of("key"));
        h.awaitStatus(old.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(old.id());
        assertTrue(h.spool.contains(old.id()));

        h.clock.advance(Duration.ofHours(167));
        h.fake.turn = (r, c) -> new TurnOutcome("b", NativeIds.NONE);
        Task b = h.submitted("p2", Optional.empty());
        h.awaitDrained(b.id());
        assertTrue(h.store.find(old.id()).isPresent(), "still inside retention");

        h.clock.advance(Duration.ofHours(2));
        Task again = h.submitted("p", Optional.of("key"));
        assertFalse(h.store.find(old.id()).isPresent(), "deleted as a unit");
        assertFalse(h.spool.contains(old.id()), "spool file deleted");
        assertTrue(!again.id().equals(old.id()), "the key is reusable after GC");
    }
}
