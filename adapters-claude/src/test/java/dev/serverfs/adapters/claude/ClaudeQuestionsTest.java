package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.task.Question;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** AskUserQuestion as a question and back (reference §7.2). */
class ClaudeQuestionsTest {

    private static JsonNode json(String s) throws Exception {
        return ClaudeWire.JSON.readTree(s);
    }

    private static final String TWO = "{\"questions\":["
            + "{\"question\":\"Which color?\",\"header\":\"Color\",\"options\":[{\"label\":\"Red\",\"description\":\"warm\"},"
            + "{\"label\":\"Blue\",\"description\":\"cold\"}],\"multiSelect\":false},"
            + "{\"question\":\"Which sizes?\",\"header\":\"Size\",\"options\":[{\"label\":\"S\"},{\"label\":\"M\"},{\"label\":\"L\"}],"
            + "\"multiSelect\":true}]}";

    @Test
    void questions_get_ids_q1_q2_options_keyed_by_label_and_free_text() throws Exception {
        QuestionRequest request = ClaudeQuestions.request(json(TWO)).orElseThrow();
        Question first = request.questions().get(0);
        assertEquals("q1", first.questionId());
        assertEquals("Which color?", first.prompt());
        assertEquals("Red", first.options().get(0).optionId());
        assertEquals(Optional.of("warm"), first.options().get(0).description());
        assertTrue(first.allowFreeText());
        Question second = request.questions().get(1);
        assertEquals("q2", second.questionId());
        assertTrue(second.multiSelect());
    }

    @Test
    void answers_go_back_keyed_by_question_text_labels_and_text_joined() throws Exception {
        JsonNode input = json(TWO);
        QuestionRequest request = ClaudeQuestions.request(input).orElseThrow();
        JsonNode updated = ClaudeQuestions.answered(
                input,
                request,
                List.of(
                        new QuestionAnswer("q1", List.of(), Optional.of("green, please")),
                        new QuestionAnswer("q2", List.of("S", "L"), Optional.empty())));
        assertEquals("green, please", updated.get("answers").get("Which color?").asText());
        assertEquals("S, L", updated.get("answers").get("Which sizes?").asText());
        assertEquals(input.get("questions"), updated.get("questions"), "the questions go back unchanged");
        assertTrue(!input.has("answers"), "the original input is not modified");
    }

    @Test
    void duplicate_texts_duplicate_labels_and_malformed_inputs_are_refused() throws Exception {
        for (String bad : List.of(
                "{\"questions\":[{\"question\":\"Same?\",\"options\":[]},{\"question\":\"Same?\",\"options\":[]}]}",
                "{\"questions\":[{\"question\":\"Q?\",\"options\":[{\"label\":\"A\"},{\"label\":\"A\"}]}]}",
                "{\"questions\":[]}",
                "{\"questions\":[{\"question\":7}]}",
                "{}")) {
            assertEquals(Optional.empty(), ClaudeQuestions.request(json(bad)), bad);
        }
    }
}
