package dev.serverfs.bootstrap.serve;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.fs.lease.FlockWriterLeases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.RecoveryGuard;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.stream.StreamSupport;

/**
 * What the Agent ITs look at in a running embedded-Agent {@code serve}: tasks and events through MCP, leases and
 * guards in its lock directory. Every wait is a bounded poll (a short park between looks, a deadline of {@link
 * #WAIT}), never a sleep standing in for a condition.
 */
final class AgentProbe {
    static final Duration WAIT = Duration.ofSeconds(60);
    private static final long BETWEEN_LOOKS_NANOS = 20_000_000;

    private final McpTestClient mcp;
    private final FlockWriterLeases leases;

    AgentProbe(McpTestClient mcp, Path lockDir) {
        this.mcp = mcp;
        this.leases = new FlockWriterLeases(lockDir);
    }

    /** One look at a condition: the value once it holds, else empty. */
    @FunctionalInterface
    interface Look<T> {
        Optional<T> look() throws Exception;
    }

    /** Looks until {@code look} yields a value, for at most {@link #WAIT}. */
    static <T> T await(String what, Look<T> look) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (true) {
            Optional<T> value = look.look();
            if (value.isPresent()) {
                return value.get();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(what + ": not within " + WAIT);
            }
            LockSupport.parkNanos(BETWEEN_LOOKS_NANOS);
        }
    }

    FlockWriterLeases leases() {
        return leases;
    }

    JsonNode task(String id) throws Exception {
        return mcp.call("get_agent_task", Map.of("task_id", id)).ok();
    }

    JsonNode awaitTask(String id, Predicate<JsonNode> condition) throws Exception {
        JsonNode[] last = {null};
        try {
            return await("task " + id, () -> {
                last[0] = task(id);
                return condition.test(last[0]) ? Optional.of(last[0]) : Optional.empty();
            });
        } catch (AssertionError e) {
            throw new AssertionError("task did not reach the expected state: " + last[0], e);
        }
    }

    JsonNode awaitStatus(String id, String status) throws Exception {
        return awaitTask(id, t -> t.get("status").asText().equals(status));
    }

    /** The task's pending request once it has one. */
    JsonNode awaitPending(String id) throws Exception {
        return awaitTask(
                        id,
                        t -> t.has("pending_request")
                                && !t.get("pending_request").isNull())
                .get("pending_request");
    }

    /** The slot's guard once it records the provider process. */
    RecoveryGuard awaitProvider(int slot) throws Exception {
        return awaitGuard(slot, g -> g.provider().isPresent());
    }

    List<String> eventTypes(String id) throws Exception {
        JsonNode events = mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .get("events");
        return StreamSupport.stream(events.spliterator(), false)
                .map(e -> e.get("event_type").asText())
                .toList();
    }

    /** Waits until serve released the slot's writer lease (this process can take the flock for a moment). */
    void awaitLeaseReleased(int slot) throws Exception {
        await("writer lease of slot " + slot + " released", () -> {
            try (var _ = leases.acquire(slot)) {
                return Optional.of(true);
            } catch (ServerFsException e) {
                if (e.code() != ErrorCode.WORKDIR_BUSY) {
                    throw e;
                }
                return Optional.empty();
            }
        });
    }

    RecoveryGuard awaitGuard(int slot, Predicate<RecoveryGuard> condition) throws Exception {
        return await("guard of slot " + slot, () -> leases.readGuard(slot).filter(condition));
    }

    void awaitNoGuard(int slot) throws Exception {
        await(
                "no guard in slot " + slot,
                () -> leases.readGuard(slot).isEmpty() ? Optional.of(true) : Optional.empty());
    }
}
