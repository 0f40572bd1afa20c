package dev.serverfs.provider;

import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.ReconcileResult;
import dev.serverfs.domain.task.ReconcileStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether a recorded provider process still runs (CONTRACT.md §3.2): its pid with the same start time (field 22 of
 * {@code /proc/<pid>/stat}, {@link ProcessStartTime}) is it; no such pid, a zombie, or one with another start time
 * proves it gone. {@link #reconcile} is the reconciliation every provider runtime answers from that and its own
 * evidence.
 */
public final class ProcessProof {
    private ProcessProof() {}

    public static ProviderState state(ProviderProcess recorded) {
        String stat;
        try {
            stat = Files.readString(Path.of("/proc", Long.toString(recorded.pid()), "stat"));
        } catch (NoSuchFileException e) {
            return ProviderState.STOPPED;
        } catch (IOException | RuntimeException e) {
            return ProviderState.UNKNOWN;
        }
        if (ProcessStartTime.state(stat).filter("Z"::equals).isPresent()) {
            return ProviderState.STOPPED; // a zombie runs no more code
        }
        return ProcessStartTime.parse(stat)
                .map(start -> start == recorded.startTime() ? ProviderState.ACTIVE : ProviderState.STOPPED)
                .orElse(ProviderState.UNKNOWN);
    }

    /**
     * Reference §6.3 for a runtime with one child per turn: a child this runtime saw exit ({@code exitObserved}) or a
     * recorded one that is proven gone is stopped, and the task is then resumable when it has a native session; a
     * child still running here, or a recorded one that runs, is active; anything else is unknown.
     */
    public static ReconcileResult reconcile(
            boolean hasSession, boolean exitObserved, boolean runningHere, Optional<ProviderProcess> recorded) {
        ReconcileStatus resumable = hasSession ? ReconcileStatus.SESSION_RESUMABLE : ReconcileStatus.NOT_RECOVERABLE;
        if (exitObserved) {
            return new ReconcileResult(resumable, ProviderState.STOPPED, "child exited");
        }
        if (runningHere) {
            return new ReconcileResult(ReconcileStatus.UNKNOWN, ProviderState.ACTIVE, "child running");
        }
        if (recorded.isPresent()) {
            return switch (state(recorded.get())) {
                case STOPPED -> new ReconcileResult(resumable, ProviderState.STOPPED, "recorded child is gone");
                case ACTIVE ->
                    new ReconcileResult(ReconcileStatus.UNKNOWN, ProviderState.ACTIVE, "recorded child runs");
                case UNKNOWN -> ReconcileResult.unknown("recorded child cannot be checked");
            };
        }
        return ReconcileResult.unknown("no local evidence");
    }
}
