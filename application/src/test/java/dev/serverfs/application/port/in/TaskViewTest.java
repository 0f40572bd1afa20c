package dev.serverfs.application.port.in;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.application.testing.TaskFixtures;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskViewTest {
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");

    private static Task failedTask() {
        return Task.queued(
                        new TaskId("agt_0123456789abcdef01234567"),
                        TaskFixtures.FAKE,
                        new WorkdirAlias("docs"),
                        2,
                        "src",
                        TaskProfile.REVIEW,
                        T0,
                        T0.plusSeconds(3600),
                        Optional.of(new TaskId("agt_111111111111111111111111")),
                        Optional.of(new CorrelationId("conv-1")),
                        Optional.of(new IdempotencyKey("key-1")),
                        Optional.of("fingerprint"),
                        new StoredManifest("{}", "a".repeat(64)))
                .starting(T0.plusSeconds(1))
                .withNativeIds(new NativeIds(Optional.of("native-session"), Optional.of("native-turn")), T0)
                .running(T0.plusSeconds(2))
                .failed(ErrorCode.AGENT_PROVIDER_ERROR, "provider exited 1", T0.plusSeconds(3))
                .withEventCount(7);
    }

    @Test
    void the_view_has_the_contract_fields_and_no_native_ids_fingerprint_or_event_count() {
        assertEquals(
                List.of(
                        "taskId",
                        "runtime",
                        "workdirAlias",
                        "workdirSlot",
                        "relativeCwd",
                        "profile",
                        "status",
                        "createdAt",
                        "startedAt",
                        "updatedAt",
                        "completedAt",
                        "deadlineAt",
                        "continueFromTaskId",
                        "correlationId",
                        "idempotencyKey",
                        "result",
                        "manifest",
                        "failure",
                        "pendingRequestId",
                        "pendingRequest"),
                Arrays.stream(TaskView.class.getRecordComponents())
                        .map(RecordComponent::getName)
                        .toList());
    }

    @Test
    void of_copies_every_field_of_the_task() {
        Task t = failedTask();
        assertEquals(
                new TaskView(
                        t.id(),
                        TaskFixtures.FAKE,
                        new WorkdirAlias("docs"),
                        2,
                        "src",
                        TaskProfile.REVIEW,
                        TaskStatus.FAILED,
                        T0,
                        Optional.of(T0.plusSeconds(1)),
                        T0.plusSeconds(3),
                        Optional.of(T0.plusSeconds(3)),
                        T0.plusSeconds(3600),
                        Optional.of(new TaskId("agt_111111111111111111111111")),
                        Optional.of(new CorrelationId("conv-1")),
                        Optional.of(new IdempotencyKey("key-1")),
                        Optional.empty(),
                        new StoredManifest("{}", "a".repeat(64)),
                        Optional.of(new TaskFailure(ErrorCode.AGENT_PROVIDER_ERROR, "provider exited 1")),
                        Optional.empty(),
                        Optional.empty()),
                TaskView.of(t, Optional.empty()));
        assertEquals(
                new TaskHandle(
                        t.id(),
                        TaskStatus.FAILED,
                        Optional.of(new CorrelationId("conv-1")),
                        Optional.of(new IdempotencyKey("key-1")),
                        "src",
                        TaskProfile.REVIEW),
                TaskHandle.of(t));
    }

    @Test
    void a_view_that_breaks_the_task_state_rules_is_refused() {
        TaskView v = TaskView.of(failedTask(), Optional.empty());
        assertThrows(
                IllegalArgumentException.class,
                () -> new TaskView(
                        v.taskId(),
                        v.runtime(),
                        v.workdirAlias(),
                        v.workdirSlot(),
                        v.relativeCwd(),
                        v.profile(),
                        TaskStatus.SUCCEEDED,
                        v.createdAt(),
                        v.startedAt(),
                        v.updatedAt(),
                        v.completedAt(),
                        v.deadlineAt(),
                        v.continueFromTaskId(),
                        v.correlationId(),
                        v.idempotencyKey(),
                        v.result(),
                        v.manifest(),
                        v.failure(),
                        v.pendingRequestId(),
                        v.pendingRequest()),
                "succeeded without a result");
        assertThrows(
                IllegalArgumentException.class,
                () -> new TaskView(
                        v.taskId(),
                        v.runtime(),
                        v.workdirAlias(),
                        v.workdirSlot(),
                        v.relativeCwd(),
                        v.profile(),
                        v.status(),
                        v.createdAt(),
                        v.startedAt(),
                        v.updatedAt(),
                        v.completedAt(),
                        v.deadlineAt(),
                        v.continueFromTaskId(),
                        v.correlationId(),
                        v.idempotencyKey(),
                        v.result(),
                        v.manifest(),
                        v.failure(),
                        Optional.of(new RequestId("req_0123456789abcdef01234567")),
                        v.pendingRequest()),
                "a pending request id while not waiting");
    }
}
