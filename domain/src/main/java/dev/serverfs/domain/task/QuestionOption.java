package dev.serverfs.domain.task;

import java.util.Objects;
import java.util.Optional;

/** One selectable option of a question (reference §3.14). */
public record QuestionOption(String optionId, String label, Optional<String> description) {
    public QuestionOption {
        Objects.requireNonNull(optionId, "optionId");
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(description, "description");
    }
}
