package dev.serverfs.application.port.out;

import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.util.Optional;

/**
 * One agent runtime (Codex, Claude, the test-only fake): runs one provider turn per task in a child process it
 * owns (reference §7). Failures are {@code ServerFsException}s ({@code AGENT_PROVIDER_ERROR}, {@code
 * AGENT_RUNTIME_UNAVAILABLE}, ...). Must be safe to call {@link #cancel} and {@link #steer} from other threads
 * while {@link #runTurn} blocks.
 */
public interface AgentRuntime {

    /** Which runtime this is. */
    RuntimeName name();

    /** Probes availability and capabilities; never starts or installs a provider. */
    RuntimeInfo probe();

    /**
     * Runs one turn and blocks until it ends, reporting progress through {@code context}. Returns the final
     * response, or throws. An interrupt of the calling thread asks the turn to stop. Returns or throws only after
     * the turn's provider process exited or a bounded stop gave up on it (v0.7.3 §6): the lifecycle decides on the
     * recovery guard right after, treating a normal return as proof of stop and otherwise asking {@link #reconcile}.
     */
    TurnOutcome runTurn(TurnRequest request, RunContext context);

    /**
     * Best-effort interrupt of the task's turn. May block; the caller bounds it (10 s, v0.7.3 §14.3). After it the
     * runtime should be able to prove, in {@link #reconcile}, whether its provider stopped.
     */
    void cancel(TaskId taskId);

    /** Steers the running turn with a user message: not running → {@code AGENT_TASK_NOT_ACTIVE}. */
    void steer(TaskId taskId, String message);

    /**
     * What can be proven about the task's provider (reference §6.3), using the runtime's own evidence and the
     * process recorded in the recovery guard. Must not throw: unknown is {@link ReconcileResult#unknown}.
     */
    ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess);
}
