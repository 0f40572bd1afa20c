package dev.serverfs.adapters.mcp.tools.agent;

import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.ToolAnnotations;
import dev.serverfs.adapters.mcp.ToolArguments;
import dev.serverfs.adapters.mcp.ToolResult;
import dev.serverfs.adapters.mcp.ToolSpec;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Objects;

/** {@code answer_agent_question} (reference §3.7); the answers are validated against the pending question. */
public final class AnswerAgentQuestionTool implements McpTool {

    static final ToolSpec SPEC = new ToolSpec(
            "answer_agent_question",
            "Answer an Agent task's pending question request: one entry per question with question_id,"
                    + " selected_option_ids and, where free text is allowed, text.",
            ToolAnnotations.mutating(false, true, true),
            ToolSurface.AGENT);

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
                .map(x -> new QuestionAnswer(
                        x.requiredString("question_id"), x.strings("selected_option_ids"), x.string("text")))
                .toList();
        return InteractionAcks.of(useCase.answer(taskId, requestId, answers)).withCounter("returned", answers.size());
    }
}
