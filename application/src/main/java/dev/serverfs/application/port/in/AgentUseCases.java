package dev.serverfs.application.port.in;

import java.util.Objects;

/**
 * The nine Agent use cases behind the Agent tools (reference §3): implemented by the Agent service hosted in this
 * process, or by a client of a Bridge that hosts it elsewhere. {@link #of} takes one object implementing all nine.
 */
public record AgentUseCases(
        ListAgentRuntimesUseCase listRuntimes,
        SubmitAgentTaskUseCase submit,
        GetAgentTaskUseCase get,
        ReadAgentTaskEventsUseCase events,
        ReadAgentTaskResultUseCase result,
        RespondAgentApprovalUseCase approval,
        AnswerAgentQuestionUseCase answer,
        SendAgentMessageUseCase message,
        CancelAgentTaskUseCase cancel) {

    public AgentUseCases {
        Objects.requireNonNull(listRuntimes, "listRuntimes");
        Objects.requireNonNull(submit, "submit");
        Objects.requireNonNull(get, "get");
        Objects.requireNonNull(events, "events");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(approval, "approval");
        Objects.requireNonNull(answer, "answer");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(cancel, "cancel");
    }

    /** All nine from one implementation (e.g. a Bridge client). */
    public static <
                    T extends
                            ListAgentRuntimesUseCase & SubmitAgentTaskUseCase & GetAgentTaskUseCase
                                    & ReadAgentTaskEventsUseCase & ReadAgentTaskResultUseCase
                                    & RespondAgentApprovalUseCase & AnswerAgentQuestionUseCase & SendAgentMessageUseCase
                                    & CancelAgentTaskUseCase>
            AgentUseCases of(T all) {
        return new AgentUseCases(all, all, all, all, all, all, all, all, all);
    }

    /** The same use cases with {@code listRuntimes} replaced (e.g. filtered to what this side allowlists). */
    public AgentUseCases withListRuntimes(ListAgentRuntimesUseCase replacement) {
        return new AgentUseCases(replacement, submit, get, events, result, approval, answer, message, cancel);
    }

    /** The same use cases with {@code submit} replaced (e.g. wrapped in checks made before a remote call). */
    public AgentUseCases withSubmit(SubmitAgentTaskUseCase replacement) {
        return new AgentUseCases(listRuntimes, replacement, get, events, result, approval, answer, message, cancel);
    }
}
