package dev.serverfs.domain.task;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validation of human answers against the pending request (reference §3.6, §3.7) and of interaction sizes and
 * expiry (§3.14, v0.7.3 §5). Pure functions.
 */
public final class InteractionRules {
    private InteractionRules() {}

    /** v0.7.3 §5: {@code expires_at = min(task.deadline_at, now + interaction_timeout)}. */
    public static Instant expiresAt(Instant deadlineAt, Instant now, AgentLimits limits) {
        Instant byTimeout = now.plus(limits.interactionTimeout());
        return byTimeout.isBefore(deadlineAt) ? byTimeout : deadlineAt;
    }

    /** Payload or resolution JSON above {@code max_interaction_bytes} → {@code AGENT_INTERACTION_TOO_LARGE}. */
    public static void requireSize(String json, AgentLimits limits) {
        if (json.getBytes(StandardCharsets.UTF_8).length > limits.maxInteractionBytes()) {
            throw new ServerFsException(ErrorCode.AGENT_INTERACTION_TOO_LARGE, "interaction is too large");
        }
    }

    /**
     * The decision must be offered ({@code INVALID_APPROVAL_DECISION}) and granted permission ids must be a
     * subset of the requested ones ({@code PERMISSION_OUTSIDE_POLICY}).
     */
    public static void checkApproval(ApprovalRequest request, ApprovalResolution resolution) {
        if (!request.availableDecisions().isEmpty()
                && !request.availableDecisions().contains(resolution.decision())) {
            throw new ServerFsException(
                    ErrorCode.INVALID_APPROVAL_DECISION, "decision is not available for this request");
        }
        if (resolution.grantedPermissionIds().isPresent()) {
            Set<String> requested = new HashSet<>();
            request.requestedPermissions().forEach(p -> requested.add(p.permissionId()));
            for (String id : resolution.grantedPermissionIds().get()) {
                if (!requested.contains(id)) {
                    throw new ServerFsException(
                            ErrorCode.PERMISSION_OUTSIDE_POLICY, "granted permission was not requested");
                }
            }
        }
    }

    /**
     * Reference §3.7: at least one answer; question ids known and not repeated; option ids unique and known; more
     * than one selection only for multi-select; text only when free text is allowed; each answer needs a
     * selection or non-empty text; every question answered. Any violation → {@code INVALID_QUESTION_ANSWER}.
     */
    public static void checkAnswers(QuestionRequest request, List<QuestionAnswer> answers) {
        if (answers.isEmpty()) {
            throw invalid("at least one answer is required");
        }
        Map<String, Question> byId = new HashMap<>();
        request.questions().forEach(q -> byId.put(q.questionId(), q));
        Set<String> answered = new HashSet<>();
        for (QuestionAnswer answer : answers) {
            Question question = byId.get(answer.questionId());
            if (question == null) {
                throw invalid("unknown question_id");
            }
            if (!answered.add(answer.questionId())) {
                throw invalid("question answered twice");
            }
            Set<String> known = new HashSet<>();
            question.options().forEach(o -> known.add(o.optionId()));
            Set<String> selected = new HashSet<>();
            for (String option : answer.selectedOptionIds()) {
                if (!selected.add(option)) {
                    throw invalid("option selected twice");
                }
                if (!known.contains(option)) {
                    throw invalid("unknown option_id");
                }
            }
            if (selected.size() > 1 && !question.multiSelect()) {
                throw invalid("question allows one selection");
            }
            if (answer.text().isPresent() && !question.allowFreeText()) {
                throw invalid("question does not allow free text");
            }
            boolean hasText = answer.text().map(t -> !t.isEmpty()).orElse(false);
            if (selected.isEmpty() && !hasText) {
                throw invalid("each answer needs a selection or text");
            }
        }
        if (!answered.equals(byId.keySet())) {
            throw invalid("every question must be answered");
        }
    }

    private static ServerFsException invalid(String message) {
        return new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, message);
    }
}
