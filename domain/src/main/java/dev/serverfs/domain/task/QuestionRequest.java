package dev.serverfs.domain.task;

import dev.serverfs.domain.json.JsonValue;
import java.util.HashSet;
import java.util.List;

/** The questions a provider asks (reference §3.14); ids are unique and there is at least one question. */
public record QuestionRequest(List<Question> questions) {
    public QuestionRequest {
        questions = List.copyOf(questions);
        if (questions.isEmpty()) {
            throw new IllegalArgumentException("at least one question");
        }
        var ids = new HashSet<String>();
        for (Question q : questions) {
            if (!ids.add(q.questionId())) {
                throw new IllegalArgumentException("duplicate question id");
            }
        }
    }

    public JsonValue.JsonObject toPayload() {
        return JsonValue.object()
                .put(
                        "questions",
                        JsonValue.arrayOf(questions.stream()
                                .map(q -> JsonValue.object()
                                        .put("question_id", q.questionId())
                                        .put("prompt", q.prompt())
                                        .put(
                                                "options",
                                                JsonValue.arrayOf(q.options().stream()
                                                        .map(o -> {
                                                            var b = JsonValue.object()
                                                                    .put("option_id", o.optionId())
                                                                    .put("label", o.label());
                                                            o.description().ifPresent(d -> b.put("description", d));
                                                            return b.build();
                                                        })
                                                        .toList()))
                                        .put("multi_select", q.multiSelect())
                                        .put("allow_free_text", q.allowFreeText())
                                        .build())
                                .toList()))
                .build();
    }
}
