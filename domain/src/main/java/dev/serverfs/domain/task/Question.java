package dev.serverfs.domain.task;

import java.util.List;
import java.util.Objects;

/** One question of a question request (reference §3.14). */
public record Question(
        String questionId, String prompt, List<QuestionOption> options, boolean multiSelect, boolean allowFreeText) {
    public Question {
        Objects.requireNonNull(questionId, "questionId");
        Objects.requireNonNull(prompt, "prompt");
        options = List.copyOf(options);
    }
}
