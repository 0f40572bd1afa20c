package dev.serverfs.application.port.in;

import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.List;

/** {@code answer_agent_question} / {@code task.question.answer} (reference §3.7). */
public interface AnswerAgentQuestionUseCase {

    InteractionAck answer(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers);
}
