package dev.serverfs.domain.task;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A caller's answer to one question (reference §3.7); validated against the request by the interaction rules. */
public record QuestionAnswer(String questionId, List<String> selectedOptionIds, Optional<String> text) {
    public QuestionAnswer {
        Objects.requireNonNull(questionId, "questionId");
        selectedOptionIds = List.copyOf(selectedOptionIds);
        Objects.requireNonNull(text, "text");
    }
}
