package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * {@code answer_agent_question} (reference §3.7). The schema types each answer's fields (a wrong type is {@code
 * INVALID_ARGUMENTS}, as for every tool); that an answer has only {@code question_id}, {@code selected_option_ids}
 * and {@code text} is checked here and its content against the pending question, both failing {@code
 * INVALID_QUESTION_ANSWER} as the reference does.
 */
public final class AnswerAgentQuestionTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "answer_agent_question",
            "Answer an Agent task's pending question request: one entry per question with question_id,"
                    + " selected_option_ids and, where free text is allowed, text.",
            ToolAnnotations.mutating(false, true, true),
            ToolSurface.AGENT);

    private static final Set<String> ANSWER_KEYS = Set.of("question_id", "selected_option_ids", "text");

    private final AnswerAgentQuestionUseCase useCase;

    public AnswerAgentQuestionTool(AnswerAgentQuestionUseCase useCase) {
        this.useCase = Objects.requireNonNull(useCase, "useCase");
    }

    @Override
    public ToolSpec spec() {
        return SPEC;
    }

    @Override
    public ToolResult call(ToolArguments a) {
        TaskId taskId = TaskId.parse(a.requiredString("task_id"));
        RequestId requestId = RequestId.parse(a.requiredString("request_id"));
        List<QuestionAnswer> answers = a.objects("answers").stream()
                .map(AnswerAgentQuestionTool::answer)
                .toList();
        return InteractionAcks.of(useCase.answer(taskId, requestId, answers)).withCounter("returned", answers.size());
    }

    private static QuestionAnswer answer(ToolArguments answer) {
        if (!ANSWER_KEYS.containsAll(answer.names())) {
            throw invalid("an answer has only question_id, selected_option_ids and text");
        }
        return new QuestionAnswer(
                answer.requiredString("question_id"), answer.strings("selected_option_ids"), answer.string("text"));
    }

    private static ServerFsException invalid(String message) {
        return new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, message);
    }
}
