package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ApprovalDecisionTest {

    @Test
    void the_four_reference_decisions_parse_from_their_wire_names() {
        assertEquals(
                List.of("approve_once", "approve_session", "deny", "cancel_task"),
                Arrays.stream(ApprovalDecision.values())
                        .map(ApprovalDecision::wire)
                        .toList());
        for (ApprovalDecision decision : ApprovalDecision.values()) {
            assertEquals(decision, ApprovalDecision.parse(decision.wire()));
        }
    }

    @Test
    void anything_else_is_an_invalid_approval_decision_with_the_edges_message() {
        for (String bad : Arrays.asList("approve", "APPROVE_ONCE", " deny", "", "approve_always", null)) {
            ServerFsException e = assertThrows(ServerFsException.class, () -> ApprovalDecision.parse(bad));
            assertEquals(ErrorCode.INVALID_APPROVAL_DECISION, e.code());
            assertEquals("unknown decision", e.getMessage());
        }
    }
}
