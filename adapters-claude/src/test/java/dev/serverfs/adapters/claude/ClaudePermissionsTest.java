package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The approval mapping of reference §7.2, table-tested. */
class ClaudePermissionsTest {

    private static JsonNode json(String s) throws Exception {
        return ClaudeWire.JSON.readTree(s);
    }

    /** The Bash request the real CLI sent (PROVIDERS.md (c)), with its three suggestions. */
    private static final String BASH = "{\"subtype\":\"can_use_tool\",\"tool_name\":\"Bash\",\"display_name\":\"Bash\","
            + "\"input\":{\"command\":\"touch x\",\"description\":\"Create file x\"},\"description\":\"Create file x\","
            + "\"tool_use_id\":\"toolu_touch_1\",\"blocked_path\":\"/w/x\",\"permission_suggestions\":["
            + "{\"type\":\"addRules\",\"rules\":[{\"toolName\":\"Bash\",\"ruleContent\":\"touch x *\"}],\"behavior\":\"allow\","
            + "\"destination\":\"localSettings\"},"
            + "{\"type\":\"addDirectories\",\"directories\":[\"/w\"],\"destination\":\"session\"},"
            + "{\"type\":\"setMode\",\"mode\":\"acceptEdits\",\"destination\":\"session\"}]}";

    @Test
    void categories_follow_the_reference_table() {
        Map<String, String> table = Map.of(
                "Bash", "command",
                "Monitor", "command",
                "Write", "file_change",
                "Edit", "file_change",
                "NotebookEdit", "file_change",
                "WebFetch", "network_permission",
                "WebSearch", "network_permission",
                "mcp__github__create_issue", "mcp_tool",
                "Task", "other",
                "Read", "other");
        table.forEach((tool, category) -> assertEquals(category, ClaudePermissions.category(tool), tool));
    }

    @Test
    void a_bash_request_becomes_a_command_approval_with_its_command_and_reason() throws Exception {
        ClaudePermissions.Prepared p = ClaudePermissions.approval(json(BASH));
        JsonValue.JsonObject payload = p.request().toPayload();
        assertEquals("command", p.request().category());
        assertEquals("Bash", p.request().title());
        assertEquals(Optional.of(new JsonValue.JsonString("touch x")), payload.get("command_display"));
        assertEquals(Optional.of(new JsonValue.JsonString("Create file x")), payload.get("reason"));
        assertEquals(Optional.of(new JsonValue.JsonString("/w/x")), payload.get("blocked_path"));
        assertEquals(List.of(ApprovalDecision.values()), p.request().availableDecisions());
    }

    @Test
    void approve_session_is_offered_only_with_a_session_suggestion_and_only_those_are_echoed() throws Exception {
        ClaudePermissions.Prepared p = ClaudePermissions.approval(json(BASH));
        assertEquals(2, p.sessionUpdates().size());
        p.sessionUpdates()
                .forEach(u -> assertEquals("session", u.get("destination").asText()));
        JsonNode reply = json(ClaudePermissions.response(
                "r1",
                json(BASH),
                new ApprovalResolution(ApprovalDecision.APPROVE_SESSION, Optional.empty()),
                p.sessionUpdates()));
        JsonNode response = reply.get("response").get("response");
        assertEquals("allow", response.get("behavior").asText());
        assertEquals(2, response.get("updatedPermissions").size());
        assertFalse(response.toString().contains("localSettings"), "never a settings-file update");

        String noSession = "{\"tool_name\":\"Write\",\"input\":{\"file_path\":\"/w/a.txt\",\"content\":\"hi\"},"
                + "\"permission_suggestions\":[{\"type\":\"addRules\",\"destination\":\"userSettings\"}]}";
        ClaudePermissions.Prepared write = ClaudePermissions.approval(json(noSession));
        assertEquals(
                List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK),
                write.request().availableDecisions());
        assertEquals("file_change", write.request().category());
        assertTrue(write.request().toPayload().get("file_changes").isPresent());
    }

    @Test
    void each_decision_maps_to_its_control_response() throws Exception {
        JsonNode request = json(BASH);
        record Row(ApprovalDecision decision, String behavior, boolean interrupt) {}
        for (Row row : List.of(
                new Row(ApprovalDecision.APPROVE_ONCE, "allow", false),
                new Row(ApprovalDecision.DENY, "deny", false),
                new Row(ApprovalDecision.CANCEL_TASK, "deny", true))) {
            JsonNode reply = json(ClaudePermissions.response(
                    "r9", request, new ApprovalResolution(row.decision(), Optional.empty()), List.of()));
            assertEquals("control_response", reply.get("type").asText());
            assertEquals("r9", reply.get("response").get("request_id").asText());
            JsonNode response = reply.get("response").get("response");
            assertEquals(row.behavior(), response.get("behavior").asText(), row.toString());
            if (row.behavior().equals("allow")) {
                assertEquals(request.get("input"), response.get("updatedInput"));
                assertFalse(response.has("updatedPermissions"));
            } else {
                assertEquals(row.interrupt(), response.get("interrupt").asBoolean(), row.toString());
            }
        }
    }

    @Test
    void huge_tool_inputs_are_cut_so_the_approval_payload_stays_small() throws Exception {
        String big = "x".repeat(100_000);
        JsonNode request =
                json("{\"tool_name\":\"Write\",\"input\":{\"file_path\":\"/w/a\",\"content\":\"" + big + "\"}}");
        String payload = dev.serverfs.domain.json.CanonicalJson.write(
                ClaudePermissions.approval(request).request().toPayload());
        assertTrue(payload.length() < 8_000, Integer.toString(payload.length()));
    }
}
