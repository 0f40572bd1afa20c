package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionOption;
import dev.serverfs.domain.task.QuestionRequest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Claude's {@code AskUserQuestion} tool as a question and back (reference §7.2). Pure. Question ids are {@code q1},
 * {@code q2}, ... in order; an option's id is its label; free text is always allowed. The answers go back keyed by
 * question text, so two questions with the same text cannot be answered apart: such a request is refused.
 */
final class ClaudeQuestions {
    static final String TOOL = "AskUserQuestion";
    static final String REFUSED = "The questions could not be shown: each needs a distinct text and distinct options";

    private ClaudeQuestions() {}

    /** The question request for the tool's input; empty when it is malformed or two question texts repeat. */
    static Optional<QuestionRequest> request(JsonNode input) {
        JsonNode questions = input.path("questions");
        if (!questions.isArray() || questions.isEmpty()) {
            return Optional.empty();
        }
        List<Question> result = new ArrayList<>();
        Set<String> texts = new HashSet<>();
        for (JsonNode q : questions) {
            JsonNode text = q.path("question");
            if (!text.isTextual() || text.asText().isBlank() || !texts.add(text.asText())) {
                return Optional.empty();
            }
            List<QuestionOption> options = new ArrayList<>();
            Set<String> labels = new HashSet<>();
            for (JsonNode o : q.path("options")) {
                JsonNode label = o.path("label");
                if (!label.isTextual() || !labels.add(label.asText())) {
                    return Optional.empty();
                }
                JsonNode description = o.path("description");
                options.add(new QuestionOption(
                        label.asText(),
                        label.asText(),
                        description.isTextual() ? Optional.of(description.asText()) : Optional.empty()));
            }
            result.add(new Question(
                    "q" + (result.size() + 1),
                    text.asText(),
                    options,
                    q.path("multiSelect").asBoolean(false),
                    true));
        }
        return Optional.of(new QuestionRequest(result));
    }

    /**
     * The tool's input plus {@code answers}: question text → the chosen labels and the free text, joined by {@code
     * ", "} (the CLI's convention for multi-select values).
     */
    static JsonNode answered(JsonNode input, QuestionRequest request, List<QuestionAnswer> answers) {
        Map<String, QuestionAnswer> byId = new LinkedHashMap<>();
        answers.forEach(a -> byId.put(a.questionId(), a));
        ObjectNode updated = input.deepCopy();
        ObjectNode out = updated.putObject("answers");
        for (Question q : request.questions()) {
            QuestionAnswer a = byId.get(q.questionId());
            if (a == null) {
                continue;
            }
            List<String> parts = new ArrayList<>(a.selectedOptionIds());
            a.text().filter(t -> !t.isBlank()).ifPresent(parts::add);
            out.put(q.prompt(), String.join(", ", parts));
        }
        return updated;
    }
}
