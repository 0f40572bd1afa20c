package dev.serverfs.bootstrap.agent;

import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.TaskId;
import java.util.List;

/**
 * The Agent use cases when the Agent runs in a separate Bridge process that this build cannot reach yet (the
 * Bridge client arrives with the Bridge): every call answers {@code AGENT_BRIDGE_UNAVAILABLE: Agent Bridge is
 * unavailable} (reference §3), after the MCP-side checks of submit.
 */
final class UnavailableBridge
        implements ListAgentRuntimesUseCase,
                SubmitAgentTaskUseCase,
                GetAgentTaskUseCase,
                ReadAgentTaskEventsUseCase,
                ReadAgentTaskResultUseCase,
                RespondAgentApprovalUseCase,
                AnswerAgentQuestionUseCase,
                SendAgentMessageUseCase,
                CancelAgentTaskUseCase {

    private static ServerFsException unavailable() {
        return new ServerFsException(ErrorCode.AGENT_BRIDGE_UNAVAILABLE, "Agent Bridge is unavailable");
    }

    @Override
    public List<RuntimeInfo> listRuntimes() {
        throw unavailable();
    }

    @Override
    public Submission submit(SubmitAgentTaskCommand command) {
        throw unavailable();
    }

    @Override
    public TaskView get(TaskId taskId) {
        throw unavailable();
    }

    @Override
    public EventPage readEvents(TaskId taskId, long afterEventId, int limit) {
        throw unavailable();
    }

    @Override
    public ResultRead readResult(TaskId taskId, long offsetBytes, int maxBytes) {
        throw unavailable();
    }

    @Override
    public InteractionAck respond(TaskId taskId, RequestId requestId, ApprovalResolution resolution) {
        throw unavailable();
    }

    @Override
    public InteractionAck answer(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers) {
        throw unavailable();
    }

    @Override
    public MessageAck send(TaskId taskId, String message) {
        throw unavailable();
    }

    @Override
    public CancelOutcome cancel(TaskId taskId) {
        throw unavailable();
    }
}
