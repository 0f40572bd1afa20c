package dev.serverfs.application.service;

import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Objects;

/** Reference §3.7. */
public final class AnswerAgentQuestionService implements AnswerAgentQuestionUseCase {
    private final TaskLifecycle lifecycle;

    public AnswerAgentQuestionService(TaskLifecycle lifecycle) {
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
    }

    @Override
    public InteractionAck answer(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers) {
        return lifecycle.answerQuestion(taskId, requestId, answers);
    }
}
