package dev.serverfs.domain.task;

import java.util.Optional;

/**
 * Pure recovery decisions (reference §6.2-§6.3, CONTRACT.md §3.2). A recovery guard may be removed only on proof
 * that the provider stopped; unknown state fails closed.
 */
public final class RecoveryPolicy {
    private RecoveryPolicy() {}

    /**
     * Combines the runtime's own evidence with the recorded child process. A recorded process that is provably
     * gone (or whose pid was reused) is proof on its own; otherwise the runtime's proof counts; any evidence of
     * activity means active; no evidence means unknown.
     */
    public static ProviderState combine(ProviderState runtimeView, Optional<ProviderState> processView) {
        if (processView.isPresent() && processView.get() == ProviderState.STOPPED) {
            return ProviderState.STOPPED;
        }
        if (runtimeView == ProviderState.STOPPED) {
            return processView.isPresent() && processView.get() == ProviderState.ACTIVE
                    ? ProviderState.ACTIVE
                    : ProviderState.STOPPED;
        }
        if (runtimeView == ProviderState.ACTIVE
                || (processView.isPresent() && processView.get() == ProviderState.ACTIVE)) {
            return ProviderState.ACTIVE;
        }
        return ProviderState.UNKNOWN;
    }

    /** Only a proven stop lets a guard go. */
    public static boolean mayRemoveGuard(ProviderState state) {
        return switch (state) {
            case STOPPED -> true;
            case ACTIVE, UNKNOWN -> false;
        };
    }
}
