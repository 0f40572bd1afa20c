package dev.serverfs.domain.task;

import static dev.serverfs.domain.task.ProviderState.ACTIVE;
import static dev.serverfs.domain.task.ProviderState.STOPPED;
import static dev.serverfs.domain.task.ProviderState.UNKNOWN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RecoveryPolicyTest {

    @ParameterizedTest(name = "runtime {0}, process {1} -> {2}")
    @CsvSource({
        "UNKNOWN, NONE,    UNKNOWN",
        "UNKNOWN, UNKNOWN, UNKNOWN",
        "UNKNOWN, STOPPED, STOPPED",
        "UNKNOWN, ACTIVE,  ACTIVE",
        "STOPPED, NONE,    STOPPED",
        "STOPPED, UNKNOWN, STOPPED",
        "STOPPED, ACTIVE,  ACTIVE",
        "ACTIVE,  NONE,    ACTIVE",
        "ACTIVE,  STOPPED, STOPPED",
        "ACTIVE,  UNKNOWN, ACTIVE"
    })
    void provider_state_combines_runtime_and_process_evidence(String runtime, String process, String expected) {
        Optional<ProviderState> processView =
                process.equals("NONE") ? Optional.empty() : Optional.of(ProviderState.valueOf(process));
        ProviderState combined = RecoveryPolicy.combine(ProviderState.valueOf(runtime), processView);
        assertEquals(ProviderState.valueOf(expected), combined);
        assertEquals(combined == STOPPED, RecoveryPolicy.mayRemoveGuard(combined));
    }

    @ParameterizedTest
    @CsvSource({"ACTIVE,false", "UNKNOWN,false", "STOPPED,true"})
    void only_proof_of_stop_removes_a_guard(ProviderState state, boolean removable) {
        assertEquals(removable, RecoveryPolicy.mayRemoveGuard(state));
        assertEquals(state == ACTIVE ? Boolean.TRUE : state == UNKNOWN ? null : Boolean.FALSE, state.providerActive());
    }
}
