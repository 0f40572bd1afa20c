package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class InteractionRulesTest {
    private static final QuestionRequest QUESTIONS = new QuestionRequest(List.of(
            new Question(
                    "q1",
                    "pick",
                    List.of(
                            new QuestionOption("a", "A", Optional.empty()),
                            new QuestionOption("b", "B", Optional.empty())),
                    false,
                    true),
            new Question(
                    "q2",
                    "many",
                    List.of(
                            new QuestionOption("x", "X", Optional.empty()),
                            new QuestionOption("y", "Y", Optional.empty())),
                    true,
                    false)));

    private static QuestionAnswer a(String q, List<String> ids, String text) {
        return new QuestionAnswer(q, ids, Optional.ofNullable(text));
    }

    static List<Arguments> invalidAnswers() {
        QuestionAnswer q2 = a("q2", List.of("x"), null);
        return List.of(
                Arguments.of("no answers", List.of()),
                Arguments.of("unknown question", List.of(a("q9", List.of("a"), null), q2)),
                Arguments.of(
                        "duplicate question", List.of(a("q1", List.of("a"), null), a("q1", List.of("b"), null), q2)),
                Arguments.of("duplicate option", List.of(a("q1", List.of("a", "a"), null), q2)),
                Arguments.of("unknown option", List.of(a("q1", List.of("z"), null), q2)),
                Arguments.of("two selections on single select", List.of(a("q1", List.of("a", "b"), null), q2)),
                Arguments.of(
                        "text where not allowed", List.of(a("q1", List.of("a"), null), a("q2", List.of("x"), "t"))),
                Arguments.of("empty answer", List.of(a("q1", List.of(), ""), q2)),
                Arguments.of("question left unanswered", List.of(a("q1", List.of("a"), null))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidAnswers")
    void invalid_answers_are_refused(String why, List<QuestionAnswer> answers) {
        ServerFsException e =
                assertThrows(ServerFsException.class, () -> InteractionRules.checkAnswers(QUESTIONS, answers));
        assertEquals(ErrorCode.INVALID_QUESTION_ANSWER, e.code());
    }

    @Test
    void valid_answers_pass() {
        InteractionRules.checkAnswers(
                QUESTIONS, List.of(a("q1", List.of(), "free text"), a("q2", List.of("x", "y"), null)));
        InteractionRules.checkAnswers(QUESTIONS, List.of(a("q2", List.of("y"), null), a("q1", List.of("b"), "also")));
    }

    @Test
    void approval_decision_must_be_offered_and_grants_must_be_requested() {
        ApprovalRequest request = new ApprovalRequest(
                "command",
                "run tests",
                List.of(new RequestedPermission("p1", "network", JsonValue.JsonNull.INSTANCE)),
                List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY),
                JsonValue.object().build());
        InteractionRules.checkApproval(request, new ApprovalResolution(ApprovalDecision.DENY, Optional.empty()));
        InteractionRules.checkApproval(
                request, new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.of(List.of("p1"))));
        assertEquals(
                ErrorCode.INVALID_APPROVAL_DECISION,
                assertThrows(
                                ServerFsException.class,
                                () -> InteractionRules.checkApproval(
                                        request,
                                        new ApprovalResolution(ApprovalDecision.APPROVE_SESSION, Optional.empty())))
                        .code());
        assertEquals(
                ErrorCode.PERMISSION_OUTSIDE_POLICY,
                assertThrows(
                                ServerFsException.class,
                                () -> InteractionRules.checkApproval(
                                        request,
                                        new ApprovalResolution(
                                                ApprovalDecision.APPROVE_ONCE, Optional.of(List.of("p1", "p2")))))
                        .code());
    }

    @Test
    void no_available_decisions_means_all_are_allowed() {
        ApprovalRequest request = new ApprovalRequest(
                "other", "t", List.of(), List.of(), JsonValue.object().build());
        for (ApprovalDecision d : ApprovalDecision.values()) {
            InteractionRules.checkApproval(request, new ApprovalResolution(d, Optional.empty()));
        }
    }

    @Test
    void interaction_expiry_is_the_earlier_of_deadline_and_timeout() {
        AgentLimits limits = AgentLimits.defaults();
        Instant now = Instant.parse("2026-01-01T00:00:00Z");
        assertEquals(now.plusSeconds(1800), InteractionRules.expiresAt(now.plusSeconds(7200), now, limits));
        assertEquals(now.plusSeconds(600), InteractionRules.expiresAt(now.plusSeconds(600), now, limits));
    }

    @Test
    void oversized_interactions_are_refused() {
        AgentLimits limits = AgentLimits.defaults();
        InteractionRules.requireSize("x".repeat(65_536), limits);
        assertEquals(
                ErrorCode.AGENT_INTERACTION_TOO_LARGE,
                assertThrows(ServerFsException.class, () -> InteractionRules.requireSize("é".repeat(32_769), limits))
                        .code());
    }
}
