package dev.serverfs.application.service;

import static dev.serverfs.application.service.AgentHarness.assertCode;
import static dev.serverfs.application.service.AgentHarness.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SubmitAgentTaskServiceTest {
    private final AgentHarness h = new AgentHarness();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void close() {
        release.countDown();
        h.close();
    }

    private void blockTurns() {
        h.fake.turn = (r, c) -> {
            release.await();
            return new TurnOutcome("done", NativeIds.NONE);
        };
    }

    @Test
    void lost_response_then_retry_with_the_same_key_returns_the_original_task() throws Exception {
        blockTurns();
        // The first response is "lost": the caller never sees this task id.
        Task first = h.submitted("fix it", Optional.of("objective-1"));
        h.awaitStatus(first.id(), TaskStatus.RUNNING);

        Submission retry = h.submit.submit(command("fix it", Optional.of("objective-1")));

        assertInstanceOf(Submission.Replayed.class, retry);
        assertEquals(first.id(), retry.handle().taskId());
        assertEquals(1, h.store.list(true).size(), "one task row");
        assertEquals(1, h.leases.acquisitions.get(), "one writer lease");
        assertEquals(1, h.leases.guardPublications.get(), "one recovery guard");
        release.countDown();
        h.awaitStatus(first.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(first.id());
        assertEquals(1, h.fake.turns.get(), "one provider turn");
    }

    @Test
    void retry_after_terminal_completion_returns_the_retained_task() throws Exception {
        Task first = h.submitted("echo", Optional.of("k"));
        h.awaitStatus(first.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(first.id());
        Submission retry = h.submit.submit(command("echo", Optional.of("k")));
        assertEquals(new Submission.Replayed(TaskHandle.of(h.task(first.id()))), retry);
        assertEquals(TaskStatus.SUCCEEDED, retry.handle().status());
        assertEquals(1, h.fake.turns.get());
    }

    @Test
    void fifty_concurrent_same_key_submissions_converge_on_one_task() throws Exception {
        blockTurns();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Submission>> futures = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    return h.submit.submit(command("same objective", Optional.of("same-key")));
                }));
            }
            go.countDown();
            Set<TaskId> ids = new HashSet<>();
            int created = 0;
            for (Future<Submission> f : futures) {
                Submission s = f.get();
                ids.add(s.handle().taskId());
                if (s instanceof Submission.Created) {
                    created++;
                }
            }
            assertEquals(1, ids.size());
            assertEquals(1, created);
            assertEquals(1, h.store.list(true).size());
            assertEquals(1, h.leases.acquisitions.get());
            release.countDown();
            TaskId id = ids.iterator().next();
            h.awaitStatus(id, TaskStatus.SUCCEEDED);
            h.awaitDrained(id);
            assertEquals(1, h.fake.turns.get());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void the_same_key_with_any_semantic_input_changed_is_a_conflict() throws Exception {
        blockTurns();
        Task first = h.submitted("prompt", Optional.of("k"));
        Optional<String> k = Optional.of("k");
        List<SubmitAgentTaskCommand> changed = List.of(
                SubmitAgentTaskCommand.parse(
                        "codex",
                        "docs",
                        "prompt",
                        "src",
                        "workspace-write",
                        Optional.empty(),
                        Optional.of("conv-1"),
                        k),
                SubmitAgentTaskCommand.parse(
                        "fake",
                        "notes",
                        "prompt",
                        "src",
                        "workspace-write",
                        Optional.empty(),
                        Optional.of("conv-1"),
                        k),
                SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "prompt!",
                        "src",
                        "workspace-write",
                        Optional.empty(),
                        Optional.of("conv-1"),
                        k),
                SubmitAgentTaskCommand.parse(
                        "fake", "docs", "prompt", "lib", "workspace-write", Optional.empty(), Optional.of("conv-1"), k),
                SubmitAgentTaskCommand.parse(
                        "fake", "docs", "prompt", "src", "review", Optional.empty(), Optional.of("conv-1"), k),
                SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "prompt",
                        "src",
                        "workspace-write",
                        Optional.of(TaskId.fromHex("f".repeat(24)).value()),
                        Optional.of("conv-1"),
                        k),
                SubmitAgentTaskCommand.parse(
                        "fake", "docs", "prompt", "src", "workspace-write", Optional.empty(), Optional.of("conv-2"), k),
                SubmitAgentTaskCommand.parse(
                        "fake", "docs", "prompt", "src", "workspace-write", Optional.empty(), Optional.empty(), k));
        for (SubmitAgentTaskCommand c : changed) {
            assertCode(ErrorCode.AGENT_IDEMPOTENCY_CONFLICT, () -> h.submit.submit(c));
        }
        // A normalized-equal path is the same submission.
        assertEquals(
                first.id(),
                h.submit
                        .submit(SubmitAgentTaskCommand.parse(
                                "fake",
                                "docs",
                                "prompt",
                                "./src/",
                                "workspace-write",
                                Optional.empty(),
                                Optional.of("conv-1"),
                                k))
                        .handle()
                        .taskId());
        assertEquals(1, h.store.list(true).size());
    }

    @Test
    void without_a_key_every_call_is_a_new_attempt() throws Exception {
        Task a = h.submitted("one", Optional.empty());
        h.awaitStatus(a.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(a.id());
        Task b = h.submitted("one", Optional.empty());
        assertNotEquals(a.id(), b.id());
        h.awaitStatus(b.id(), TaskStatus.SUCCEEDED);
        assertEquals(Optional.empty(), b.idempotencyKey());
        assertEquals(Optional.empty(), b.requestFingerprint());
    }

    @Test
    void a_second_workspace_write_task_on_the_slot_is_refused_never_queued() {
        blockTurns();
        h.submitted("first", Optional.empty());
        assertCode(ErrorCode.WORKDIR_BUSY, () -> h.submit.submit(command("second", Optional.of("other"))));
        assertEquals(1, h.store.list(true).size());
    }

    @Test
    void authorization_and_validation_codes() {
        assertCode(
                ErrorCode.WORKDIR_NOT_FOUND,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake", "nope", "p", "", "review", Optional.empty(), Optional.empty(), Optional.empty())));
        assertCode(
                ErrorCode.AGENT_DISABLED,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake", "off", "p", "", "review", Optional.empty(), Optional.empty(), Optional.empty())));
        assertCode(
                ErrorCode.AGENT_RUNTIME_NOT_ALLOWED,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "claude",
                        "docs",
                        "p",
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
        assertCode(
                ErrorCode.AGENT_PROFILE_NOT_ALLOWED,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "notes",
                        "p",
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
        // issue 25: a native runtime may review (its child sees the workdir read-only); here it is merely not installed
        assertCode(
                ErrorCode.AGENT_RUNTIME_UNAVAILABLE,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "codex", "notes", "p", "", "review", Optional.empty(), Optional.empty(), Optional.empty())));
        assertCode(
                ErrorCode.AGENT_RUNTIME_UNAVAILABLE,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "codex",
                        "docs",
                        "p",
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
        // The path goes through the workdir's path policy once (issue 11 §1): the code MCP clients always got.
        assertCode(
                ErrorCode.PATH_OUTSIDE_WORKDIR,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "p",
                        "../x",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
        assertCode(
                ErrorCode.AGENT_PROMPT_TOO_LARGE,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "x".repeat(65_537),
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())));
        assertCode(
                ErrorCode.INVALID_REQUEST,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "p",
                        "",
                        "workspace-write",
                        Optional.empty(),
                        Optional.of("bad\n"),
                        Optional.empty())));
        assertCode(
                ErrorCode.AGENT_TASK_NOT_FOUND,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake",
                        "docs",
                        "p",
                        "",
                        "workspace-write",
                        Optional.of(TaskId.fromHex("a".repeat(24)).value()),
                        Optional.empty(),
                        Optional.empty())));
        assertEquals(0, h.leases.acquisitions.get());
        assertTrue(h.store.list(true).isEmpty());
    }

    /**
     * Several faults at once: the refusal is the first in the reference's order (§3.2's checks, then §4.3's), each
     * field parsed once up front, keyed or not. A keyed request with a refused field has no fingerprint, so it falls
     * through to the same order.
     */
    @Test
    void with_several_faults_the_first_in_the_reference_order_is_reported() {
        h.directories.refuse("docs", "gone", ErrorCode.PATH_NOT_FOUND);
        String big = "x".repeat(65_537);
        Optional<String> badCorrelation = Optional.of("bad\n");
        Optional<String> emptyKey = Optional.of("");
        Optional<String> unknownTask =
                Optional.of(TaskId.fromHex("a".repeat(24)).value());
        record Case(ErrorCode code, String message, SubmitAgentTaskCommand command) {}
        List<Case> cases = List.of(
                new Case(
                        ErrorCode.WORKDIR_NOT_FOUND,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "qoder", "nope", big, "../x", "bogus", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.AGENT_DISABLED,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "qoder", "off", big, "../x", "bogus", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.AGENT_RUNTIME_NOT_ALLOWED,
                        "qoder is not allowed for docs",
                        SubmitAgentTaskCommand.parse(
                                "qoder", "docs", big, "../x", "bogus", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.AGENT_PROFILE_NOT_ALLOWED,
                        "unknown profile",
                        SubmitAgentTaskCommand.parse(
                                "fake", "docs", big, "../x", "bogus", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.PATH_OUTSIDE_WORKDIR,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "fake", "docs", big, "../x", "workspace-write", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.PATH_NOT_FOUND,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "fake", "docs", big, "gone", "workspace-write", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.INVALID_REQUEST,
                        "correlation_id must not contain control characters",
                        SubmitAgentTaskCommand.parse(
                                "fake", "docs", big, "src", "workspace-write", unknownTask, badCorrelation, emptyKey)),
                new Case(
                        ErrorCode.INVALID_REQUEST,
                        "idempotency_key must not be empty",
                        SubmitAgentTaskCommand.parse(
                                "fake",
                                "docs",
                                big,
                                "src",
                                "workspace-write",
                                unknownTask,
                                Optional.empty(),
                                emptyKey)),
                new Case(
                        ErrorCode.AGENT_PROMPT_TOO_LARGE,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "codex",
                                "docs",
                                big,
                                "src",
                                "workspace-write",
                                unknownTask,
                                Optional.empty(),
                                Optional.empty())),
                new Case(
                        ErrorCode.AGENT_TASK_NOT_FOUND,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "codex",
                                "docs",
                                "p",
                                "src",
                                "workspace-write",
                                unknownTask,
                                Optional.empty(),
                                Optional.of("k"))),
                new Case(
                        ErrorCode.AGENT_RUNTIME_UNAVAILABLE,
                        null,
                        SubmitAgentTaskCommand.parse(
                                "codex",
                                "docs",
                                "p",
                                "src",
                                "workspace-write",
                                Optional.empty(),
                                Optional.empty(),
                                Optional.of("k"))));
        for (Case c : cases) {
            ServerFsException e = assertThrows(ServerFsException.class, () -> h.submit.submit(c.command()));
            assertEquals(c.code(), e.code(), c.toString());
            if (c.message() != null) {
                assertEquals(c.message(), e.getMessage());
            }
        }
        assertEquals(0, h.directories.held(), "every refused submit released what it held");
        assertTrue(h.store.list(true).isEmpty());
    }

    @Test
    void review_tasks_take_no_lease_and_the_active_limit_holds() {
        blockTurns();
        for (int i = 0; i < 4; i++) {
            h.submit.submit(SubmitAgentTaskCommand.parse(
                    "fake", "notes", "p" + i, "", "review", Optional.empty(), Optional.empty(), Optional.empty()));
        }
        assertCode(
                ErrorCode.AGENT_TASK_LIMIT_REACHED,
                () -> h.submit.submit(SubmitAgentTaskCommand.parse(
                        "fake", "notes", "p", "", "review", Optional.empty(), Optional.empty(), Optional.empty())));
        assertEquals(0, h.leases.acquisitions.get());
    }

    @Test
    void submit_returns_queued_and_the_manifest_freezes_the_key_and_limits() {
        blockTurns();
        TaskHandle handle =
                h.submit.submit(AgentHarness.command("p", Optional.of("key-7"))).handle();
        assertEquals(TaskStatus.QUEUED, handle.status());
        Task t = h.task(handle.taskId());
        assertTrue(t.manifest().json().contains("\"idempotency_key\":\"key-7\""));
        assertTrue(t.manifest().json().contains("\"interaction_timeout_seconds\":1800"));
        assertTrue(!t.manifest().json().contains("/srv/"), "no host path in the manifest");
        assertEquals(AgentHarness.START.plusSeconds(7200), t.deadlineAt());
    }

    @Test
    void a_keyed_retry_is_looked_up_before_authorisation_and_the_path_check() throws Exception {
        Task first = h.submitted("echo", Optional.of("gone-later"));
        h.awaitStatus(first.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(first.id());
        int holds = h.directories.holds.get();
        // issue 10 item 11: the task itself (say) removed its starting directory
        h.directories.refuse("docs", "src", ErrorCode.PATH_NOT_FOUND);

        Submission retry = h.submit.submit(command("echo", Optional.of("gone-later")));

        assertInstanceOf(Submission.Replayed.class, retry);
        assertEquals(first.id(), retry.handle().taskId());
        assertEquals(holds, h.directories.holds.get(), "the retry never touched the filesystem");
        assertCode(ErrorCode.PATH_NOT_FOUND, () -> h.submit.submit(command("echo", Optional.of("new-key"))));
        assertCode(ErrorCode.PATH_NOT_FOUND, () -> h.submit.submit(command("echo", Optional.empty())));
        assertEquals(1, h.store.list(true).size());
    }

    @Test
    void the_provider_starts_in_the_held_directory_which_is_released_after_the_runner_drained() throws Exception {
        List<java.nio.file.Path> cwds = new java.util.concurrent.CopyOnWriteArrayList<>();
        h.fake.turn = (r, c) -> {
            cwds.add(r.workingDirectory());
            release.await();
            return new TurnOutcome("done", NativeIds.NONE);
        };
        Task t = h.submitted("p", Optional.empty());
        h.awaitStatus(t.id(), TaskStatus.RUNNING);
        assertEquals(1, h.directories.held(), "held while the task runs");
        assertEquals(List.of(AgentHarness.ROOT.resolve("src")), cwds);
        release.countDown();
        h.awaitStatus(t.id(), TaskStatus.SUCCEEDED);
        h.awaitDrained(t.id());
        assertEquals(0, h.directories.held(), "released by the runner's cleanup");
    }

    @Test
    void a_refused_submit_releases_the_directory_it_held() {
        blockTurns();
        h.submitted("first", Optional.empty());
        assertCode(ErrorCode.WORKDIR_BUSY, () -> h.submit.submit(command("second", Optional.empty())));
        assertCode(
                ErrorCode.AGENT_PROMPT_TOO_LARGE, () -> h.submit.submit(command("x".repeat(65_537), Optional.empty())));
        assertEquals(1, h.directories.held(), "only the running task's directory is held");
    }
}
