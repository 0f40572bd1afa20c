package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.provider.ProviderJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code can_use_tool} as an approval and back (reference §7.2). Pure. {@code approve_session} is offered only when
 * the CLI suggested a permission update scoped to the session, and only those updates are echoed back: updates with
 * another destination ({@code localSettings}, {@code userSettings}, {@code projectSettings}) would write the user's
 * own Claude settings files, which ServerFS never modifies.
 */
final class ClaudePermissions {
    static final String SESSION = "session";
    static final String DENIED = "Denied by the remote user";
    static final String CANCELLED = "Cancelled by the remote user";
    static final String REVIEW_DENIED = "Not allowed in a review task: it cannot modify files or run commands";

    private ClaudePermissions() {}

    /** An approval to ask for and the session-scoped permission updates {@code approve_session} would grant. */
    record Prepared(ApprovalRequest request, List<JsonNode> sessionUpdates) {
        Prepared {
            sessionUpdates = List.copyOf(sessionUpdates);
        }
    }

    /**
     * Reference §7.2: Bash → command, file tools → file_change, web → network, MCP → mcp_tool, else other. Claude
     * 2.1.332's {@code Monitor} (a command run in the background, its output watched) is a command as well: its
     * approval shows the command line like Bash's, and Claude's rules for Bash apply to it.
     */
    static String category(String toolName) {
        return switch (toolName) {
            case "Bash", "Monitor" -> "command";
            case "Write", "Edit", "MultiEdit", "NotebookEdit" -> "file_change";
            case "WebFetch", "WebSearch" -> "network_permission";
            default -> toolName.startsWith("mcp__") ? "mcp_tool" : "other";
        };
    }

    /** The approval for one {@code can_use_tool} request (its {@code request} object). */
    static Prepared approval(JsonNode canUseTool) {
        String tool = canUseTool.path("tool_name").asText("");
        JsonNode input = canUseTool.path("input");
        List<JsonNode> sessionUpdates = new ArrayList<>();
        for (JsonNode suggestion : canUseTool.path("permission_suggestions")) {
            if (SESSION.equals(suggestion.path("destination").asText(""))) {
                sessionUpdates.add(suggestion);
            }
        }
        List<ApprovalDecision> decisions = sessionUpdates.isEmpty()
                ? List.of(ApprovalDecision.APPROVE_ONCE, ApprovalDecision.DENY, ApprovalDecision.CANCEL_TASK)
                : List.of(ApprovalDecision.values());
        var extra = JsonValue.object().put("tool", tool).put("tool_input", ProviderJson.toValue(input));
        text(canUseTool, "description").ifPresent(d -> extra.put("reason", ProviderJson.cut(d)));
        text(canUseTool, "blocked_path").ifPresent(p -> extra.put("blocked_path", p));
        if (category(tool).equals("command")) {
            text(input, "command").ifPresent(c -> extra.put("command_display", ProviderJson.cut(c)));
        }
        Optional<String> file = text(input, "file_path").or(() -> text(input, "notebook_path"));
        if (category(tool).equals("file_change") && file.isPresent()) {
            extra.put(
                    "file_changes",
                    JsonValue.arrayOf(
                            List.of(JsonValue.object().put("path", file.get()).build())));
        }
        String title = text(canUseTool, "title")
                .or(() -> text(canUseTool, "display_name"))
                .orElse(tool);
        return new Prepared(
                new ApprovalRequest(category(tool), ProviderJson.cut(title), List.of(), decisions, extra.build()),
                sessionUpdates);
    }

    /** The control response line for a resolved approval (reference §7.2). */
    static String response(
            String requestId, JsonNode canUseTool, ApprovalResolution resolution, List<JsonNode> sessionUpdates) {
        JsonNode input = canUseTool.path("input");
        return switch (resolution.decision()) {
            case APPROVE_ONCE -> ClaudeWire.allow(requestId, input, List.of());
            case APPROVE_SESSION -> ClaudeWire.allow(requestId, input, sessionUpdates);
            case DENY -> ClaudeWire.deny(requestId, DENIED, false);
            case CANCEL_TASK -> ClaudeWire.deny(requestId, CANCELLED, true);
        };
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? Optional.of(v.asText()) : Optional.empty();
    }
}
