package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.AgentRuntime;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.ReconcileStatus;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** A scripted {@link AgentRuntime} (a {@code Fake<Port>}): each turn runs the test's {@link Turn}. */
public final class ScriptedRuntime implements AgentRuntime {
    /** One turn's behaviour; may block (interruptibly) and use the context. */
    @FunctionalInterface
    public interface Turn {
        TurnOutcome run(TurnRequest request, RunContext context) throws InterruptedException;
    }

    private final RuntimeName name;
    public volatile Turn turn =
            (r, c) -> new TurnOutcome("echo: " + r.prompt(), dev.serverfs.domain.task.NativeIds.NONE);
    /** What {@link #cancel} does; by default it returns at once. */
    public volatile Runnable onCancel = () -> {};
    /** What reconciliation reports. */
    public volatile ProviderState reconcileAnswer = ProviderState.UNKNOWN;

    public final AtomicInteger turns = new AtomicInteger();
    public final AtomicInteger cancels = new AtomicInteger();
    public final List<String> steers = new CopyOnWriteArrayList<>();
    /** Counted down by every {@link #cancel}. */
    public final CountDownLatch cancelled = new CountDownLatch(1);

    public ScriptedRuntime(String name) {
        this.name = RuntimeName.fromWire(name).orElseThrow();
    }

    @Override
    public RuntimeName name() {
        return name;
    }

    @Override
    public RuntimeInfo probe() {
        return new RuntimeInfo(name.wire(), true, Optional.of("test"), true, true, true, true, InFlightRecovery.NONE);
    }

    @Override
    public TurnOutcome runTurn(TurnRequest request, RunContext context) {
        turns.incrementAndGet();
        try {
            return turn.run(request, context);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.serverfs.domain.error.ServerFsException(
                    dev.serverfs.domain.error.ErrorCode.AGENT_PROVIDER_DISCONNECTED, "interrupted");
        }
    }

    @Override
    public void cancel(TaskId taskId) {
        cancels.incrementAndGet();
        cancelled.countDown();
        onCancel.run();
    }

    @Override
    public void steer(TaskId taskId, String message) {
        steers.add(message);
    }

    @Override
    public ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess) {
        ProviderState state = reconcileAnswer;
        return new ReconcileResult(
                state == ProviderState.STOPPED ? ReconcileStatus.SESSION_RESUMABLE : ReconcileStatus.UNKNOWN,
                state,
                "scripted");
    }
}
