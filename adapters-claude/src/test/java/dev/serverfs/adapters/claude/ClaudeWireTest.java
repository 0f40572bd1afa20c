package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The parser against lines the real CLI 2.1.197 wrote (PROVIDERS.md transcripts), and the lines we write. */
class ClaudeWireTest {
    private static final Map<String, List<ClaudeMessage>> BY_SCENARIO = new TreeMap<>();

    @BeforeAll
    static void load() throws IOException {
        try (InputStream in = ClaudeWireTest.class.getResourceAsStream("claude-2.1.197-transcript.jsonl")) {
            for (String row : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                JsonNode r = ClaudeWire.JSON.readTree(row);
                BY_SCENARIO
                        .computeIfAbsent(r.get("scenario").asText(), k -> new ArrayList<>())
                        .add(ClaudeWire.parse(r.get("line").asText()));
            }
        }
    }

    private static <T extends ClaudeMessage> List<T> of(String scenario, Class<T> type) {
        return BY_SCENARIO.get(scenario).stream()
                .filter(type::isInstance)
                .map(type::cast)
                .toList();
    }

    @Test
    void a_plain_turn_is_init_then_text_then_a_successful_result_with_the_same_session() {
        List<ClaudeMessage> plain = BY_SCENARIO.get("plain");
        assertInstanceOf(ClaudeMessage.ControlResponse.class, plain.getFirst());
        assertTrue(((ClaudeMessage.ControlResponse) plain.getFirst()).success());
        String session = of("plain", ClaudeMessage.Init.class).getFirst().sessionId();
        assertTrue(session.matches("[0-9a-f-]{36}"), session);
        List<ClaudeMessage.Assistant> assistant = of("plain", ClaudeMessage.Assistant.class);
        assertEquals(
                List.of(new ClaudeMessage.Text("Hello from mock Messages API")),
                assistant.getFirst().blocks());
        ClaudeMessage.Result result = of("plain", ClaudeMessage.Result.class).getFirst();
        assertFalse(result.isError());
        assertEquals(Optional.of("Hello from mock Messages API"), result.text());
        assertEquals(Optional.of(session), result.sessionId());
        assertTrue(result.uuid().isPresent());
    }

    @Test
    void an_api_failure_is_an_error_result_although_its_subtype_says_success() {
        ClaudeMessage.Result result = of("fail500b", ClaudeMessage.Result.class).getFirst();
        assertTrue(result.isError());
        assertTrue(result.text().orElseThrow().contains("500"), result.text().toString());
    }

    @Test
    void a_bash_permission_request_is_a_can_use_tool_control_request_and_the_tool_use_is_a_block() {
        ClaudeMessage.ControlRequest request =
                of("allow", ClaudeMessage.ControlRequest.class).getFirst();
        assertEquals("can_use_tool", request.subtype());
        assertEquals("Bash", request.request().get("tool_name").asText());
        assertEquals("touch x", request.request().get("input").get("command").asText());
        ClaudeMessage.ToolUse use = of("allow", ClaudeMessage.Assistant.class).stream()
                .flatMap(a -> a.blocks().stream())
                .filter(ClaudeMessage.ToolUse.class::isInstance)
                .map(ClaudeMessage.ToolUse.class::cast)
                .findFirst()
                .orElseThrow();
        assertEquals("Bash", use.name());
        assertEquals("toolu_touch_1", use.id());
    }

    @Test
    void an_interrupted_turn_ends_with_an_error_result_and_a_withdrawn_permission_request_is_a_cancel() {
        assertTrue(of("interrupt", ClaudeMessage.Result.class).getFirst().isError());
        ClaudeMessage.ControlRequest pending =
                of("intperm", ClaudeMessage.ControlRequest.class).getFirst();
        ClaudeMessage.ControlCancel cancel =
                of("intperm", ClaudeMessage.ControlCancel.class).getFirst();
        assertEquals(pending.requestId(), cancel.requestId());
    }

    @Test
    void a_question_arrives_as_can_use_tool_for_ask_user_question() {
        ClaudeMessage.ControlRequest request =
                of("ask", ClaudeMessage.ControlRequest.class).getFirst();
        assertEquals(ClaudeQuestions.TOOL, request.request().get("tool_name").asText());
        assertTrue(ClaudeQuestions.request(request.request().get("input")).isPresent());
    }

    @Test
    void garbage_and_unknown_lines_are_other_never_an_exception() {
        assertInstanceOf(ClaudeMessage.Other.class, ClaudeWire.parse("not json"));
        assertInstanceOf(ClaudeMessage.Other.class, ClaudeWire.parse("[1,2]"));
        assertInstanceOf(ClaudeMessage.Other.class, ClaudeWire.parse("{\"type\":\"keep_alive\"}"));
        assertInstanceOf(ClaudeMessage.Other.class, ClaudeWire.parse("{\"type\":\"system\",\"subtype\":\"init\"}"));
        assertInstanceOf(ClaudeMessage.Other.class, ClaudeWire.parse("{\"type\":\"control_request\"}"));
    }

    @Test
    void the_lines_we_write_have_the_shapes_the_cli_accepted() throws IOException {
        JsonNode init = ClaudeWire.JSON.readTree(ClaudeWire.initialize("req_1"));
        assertEquals(
                "{\"type\":\"control_request\",\"request_id\":\"req_1\",\"request\":{\"subtype\":\"initialize\",\"hooks\":null}}",
                init.toString());
        JsonNode user = ClaudeWire.JSON.readTree(ClaudeWire.userMessage("Say \"hello\"\nnow"));
        assertEquals("user", user.get("type").asText());
        assertEquals(
                "Say \"hello\"\nnow",
                user.get("message").get("content").get(0).get("text").asText());
        assertFalse(ClaudeWire.userMessage("a\nb").contains("\n"), "one line");
        JsonNode interrupt = ClaudeWire.JSON.readTree(ClaudeWire.interrupt("req_2"));
        assertEquals("interrupt", interrupt.get("request").get("subtype").asText());
        JsonNode error = ClaudeWire.JSON.readTree(ClaudeWire.error("abc", "unsupported"));
        assertEquals("error", error.get("response").get("subtype").asText());
        assertEquals("abc", error.get("response").get("request_id").asText());
    }
}
