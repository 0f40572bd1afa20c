package dev.serverfs.adapters.bridge;

import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import java.util.Objects;

/** The nine Agent in-ports a {@link BridgeServer} serves: the Agent service of the Bridge process. */
public record BridgeUseCases(
        ListAgentRuntimesUseCase listRuntimes,
        SubmitAgentTaskUseCase submit,
        GetAgentTaskUseCase get,
        ReadAgentTaskEventsUseCase events,
        ReadAgentTaskResultUseCase result,
        RespondAgentApprovalUseCase approval,
        AnswerAgentQuestionUseCase answer,
        SendAgentMessageUseCase message,
        CancelAgentTaskUseCase cancel) {

    public BridgeUseCases {
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
}
