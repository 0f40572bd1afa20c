package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.domain.task.ProviderProcess;
import dev.serverfs.domain.task.ProviderState;
import dev.serverfs.domain.task.ReconcileStatus;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Against real processes: this JVM runs, a reaped child is gone, another start time is another process. */
class ProcessProofTest {
    private static ProviderProcess self() {
        long pid = ProcessHandle.current().pid();
        return new ProviderProcess(pid, ProcessStartTime.of(pid).orElseThrow());
    }

    @Test
    void a_running_process_with_its_start_time_is_active_and_another_start_time_is_not() {
        ProviderProcess self = self();
        assertEquals(ProviderState.ACTIVE, ProcessProof.state(self));
        assertEquals(ProviderState.STOPPED, ProcessProof.state(new ProviderProcess(self.pid(), self.startTime() + 1)));
    }

    @Test
    void an_exited_and_reaped_child_is_stopped() throws Exception {
        Process child = new ProcessBuilder("true").start();
        ProviderProcess recorded = new ProviderProcess(
                child.pid(), ProcessStartTime.of(child.pid()).orElse(0L));
        child.waitFor();
        assertEquals(ProviderState.STOPPED, ProcessProof.state(recorded));
    }

    @Test
    void reconcile_prefers_local_evidence_then_the_recorded_process() {
        assertEquals(
                ReconcileStatus.SESSION_RESUMABLE,
                ProcessProof.reconcile(true, true, false, Optional.empty()).status());
        assertEquals(
                ProviderState.ACTIVE,
                ProcessProof.reconcile(true, false, true, Optional.empty()).provider());
        assertEquals(
                ProviderState.ACTIVE,
                ProcessProof.reconcile(false, false, false, Optional.of(self())).provider());
        assertEquals(
                ReconcileStatus.NOT_RECOVERABLE,
                ProcessProof.reconcile(
                                false,
                                false,
                                false,
                                Optional.of(new ProviderProcess(self().pid(), self().startTime() + 7)))
                        .status());
        assertEquals(
                ProviderState.UNKNOWN,
                ProcessProof.reconcile(true, false, false, Optional.empty()).provider());
    }
}
