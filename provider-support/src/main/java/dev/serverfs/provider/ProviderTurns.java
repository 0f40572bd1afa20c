package dev.serverfs.provider;

import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The running turns of a runtime with one provider child per turn (Codex, Claude), and what every such runtime does
 * the same way: start the child and record its pid and start time in the recovery guard at once ({@link #run}),
 * honour a cancel that arrived before the child existed, end every turn with the turn's own {@link Turn#finish} and
 * return only after the child's exit was observed ({@code AGENT_PROVIDER_DISCONNECTED} otherwise: a normal return is
 * the lifecycle's proof of stop); {@link #cancel}: interrupt, then the child is stopped if the turn did not end
 * within the grace; {@link #reconcile} from the exits observed here and the recorded process.
 */
public final class ProviderTurns<T extends ProviderTurns.Turn> {
    /** One turn on its child. */
    public interface Turn {
        ProviderChild child();

        /** Called once the child runs and is recorded, before the turn is registered (e.g. the first lines). */
        default void begin() {}

        /** Asks the provider to stop the running turn; idempotent, any thread. */
        void interrupt();

        /** Ends the child (interrupting an unfinished turn first); true when its exit was observed. */
        boolean finish();
    }

    private record Entry<T>(T turn, CountDownLatch ended) {}

    private final String provider;
    private final StopPolicy stop;
    private final Duration cancelGrace;
    private final Map<TaskId, Entry<T>> turns = new ConcurrentHashMap<>();
    /** Tasks whose child this runtime saw exit: local proof of stop. */
    private final Set<TaskId> stopped = ConcurrentHashMap.newKeySet();
    /** Cancels that arrived before the task's child was registered. */
    private final Set<TaskId> earlyCancels = ConcurrentHashMap.newKeySet();

    /**
     * @param provider the provider's name in messages ({@code Codex}, {@code Claude})
     * @param stop the stop {@link #cancel} uses when the interrupted turn does not end within {@code cancelGrace}
     */
    public ProviderTurns(String provider, StopPolicy stop, Duration cancelGrace) {
        this.provider = provider;
        this.stop = stop;
        this.cancelGrace = cancelGrace;
    }

    /**
     * Runs one turn on a new child started from {@code command}: {@code open} makes the turn, {@code body} runs it
     * on the calling thread. An interrupt of the calling thread before the start is honoured once the child runs.
     */
    public TurnOutcome run(
            TaskId taskId,
            ProviderCommand command,
            RunContext context,
            Function<ProviderChild, T> open,
            Function<T, TurnOutcome> body) {
        // A stop requested before the child exists is honoured once it runs; no I/O runs interrupted.
        boolean stopAtOnce = Thread.interrupted();
        ProviderChild child = ProviderChild.start(command);
        child.onExit(() -> stopped.add(taskId));
        T turn = open.apply(child);
        Entry<T> entry = new Entry<>(turn, new CountDownLatch(1));
        TurnOutcome outcome;
        boolean exited;
        try {
            child.process().ifPresent(context::providerStarted);
            turn.begin();
            turns.put(taskId, entry);
            if (earlyCancels.remove(taskId) || stopAtOnce) {
                turn.interrupt();
                Thread.currentThread().interrupt();
            }
            outcome = body.apply(turn);
        } finally {
            exited = turn.finish();
            if (exited) {
                stopped.add(taskId);
            }
            turns.remove(taskId);
            entry.ended().countDown();
        }
        if (!exited) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the " + provider + " process did not exit");
        }
        return outcome;
    }

    /** The task's running turn, if any. */
    public Optional<T> running(TaskId taskId) {
        return Optional.ofNullable(turns.get(taskId)).map(Entry::turn);
    }

    /** Interrupts the task's turn; stops its child when the turn does not end within the grace. */
    public void cancel(TaskId taskId) {
        Entry<T> entry = turns.get(taskId);
        if (entry == null) {
            earlyCancels.add(taskId);
            return;
        }
        entry.turn().interrupt();
        try {
            if (!entry.ended().await(cancelGrace.toNanos(), TimeUnit.NANOSECONDS)) {
                // The provider did not end the turn on the interrupt: stop the child; the turn sees its output end.
                entry.turn().child().stop(stop);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link ProcessProof#reconcile} with this runtime's own evidence. */
    public ReconcileResult reconcile(Task task, Optional<ProviderProcess> recordedProcess) {
        return ProcessProof.reconcile(
                task.nativeIds().sessionId().isPresent(),
                stopped.contains(task.id()),
                turns.containsKey(task.id()),
                recordedProcess);
    }
}
