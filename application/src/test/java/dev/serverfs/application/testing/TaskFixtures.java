package dev.serverfs.application.testing;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/** Builders of valid tasks and requests for tests; times have microsecond precision like the SQLite store. */
public final class TaskFixtures {
    /** The test-only runtime every fixture task runs. */
    public static final RuntimeName FAKE = RuntimeName.fromWire("fake").orElseThrow();

    /** 2026-01-02T03:04:05.123456Z. */
    public static final Instant T0 = Instant.parse("2026-01-02T03:04:05.123456Z");

    private TaskFixtures() {}

    public static TaskId taskId(int n) {
        return TaskId.fromHex(String.format("%024x", n));
    }

    public static RequestId requestId(int n) {
        return RequestId.fromHex(String.format("%024x", n));
    }

    public static StoredManifest manifest(String seed) {
        JsonValue json =
                JsonValue.object().put("schema_version", 1).put("seed", seed).build();
        return new StoredManifest(CanonicalJson.write(json), CanonicalJson.sha256(json));
    }

    public static Task queued(int n) {
        return queued(n, Optional.empty());
    }

    public static Task queued(int n, Optional<String> idempotencyKey) {
        return Task.queued(
                taskId(n),
                FAKE,
                new WorkdirAlias("docs"),
                1 + (n % 16),
                "src/main",
                TaskProfile.WORKSPACE_WRITE,
                T0.plusSeconds(n),
                T0.plusSeconds(n).plus(Duration.ofHours(2)),
                Optional.empty(),
                Optional.of(new CorrelationId("corr-" + n)),
                idempotencyKey.map(IdempotencyKey::new),
                idempotencyKey.map(k -> HexFormat.of().formatHex(new byte[32])),
                manifest("m" + n));
    }

    public static Task running(int n) {
        Task t = queued(n);
        return t.starting(t.createdAt().plusMillis(1)).running(t.createdAt().plusMillis(2));
    }

    public static PendingRequest approvalRequest(int requestNumber, TaskId taskId, Instant now) {
        String payload = CanonicalJson.write(JsonValue.object()
                .put("category", "command")
                .put("title", "run")
                .build());
        return PendingRequest.open(
                requestId(requestNumber), taskId, InteractionKind.APPROVAL, payload, now, now.plusSeconds(1800));
    }
}
