package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * One stdout line of the CLI as far as a turn cares (PROVIDERS.md Part 2 (b)-(d)); everything else is {@link
 * Other}. Parsed by {@link ClaudeWire#parse}.
 */
sealed interface ClaudeMessage {

    /** {@code system/init}: the session id, re-emitted at the start of every user turn. */
    record Init(String sessionId) implements ClaudeMessage {}

    /** {@code system/api_retry}: the CLI retries a failed API call on its own. */
    record ApiRetry(int attempt, Optional<Integer> errorStatus) implements ClaudeMessage {}

    /** An {@code assistant} line: one content block each, text or tool use. */
    record Assistant(List<Block> blocks) implements ClaudeMessage {}

    /** {@code result}: the end of the turn. Check {@code isError}, never the subtype (PROVIDERS.md (b)). */
    record Result(
            boolean isError,
            Optional<String> text,
            Optional<String> sessionId,
            Optional<String> uuid,
            Optional<Integer> apiErrorStatus)
            implements ClaudeMessage {}

    /** A {@code control_request} from the CLI (e.g. {@code can_use_tool}); every one is answered. */
    record ControlRequest(String requestId, String subtype, JsonNode request) implements ClaudeMessage {}

    /** The CLI withdrew its control request {@code requestId} (e.g. after an interrupt). */
    record ControlCancel(String requestId) implements ClaudeMessage {}

    /** The CLI's answer to one of our control requests. */
    record ControlResponse(String requestId, boolean success) implements ClaudeMessage {}

    /** Any other line (status, stream events, tool results, keep-alives, unparseable text). */
    record Other(String type) implements ClaudeMessage {}

    /** One content block of an assistant message. */
    sealed interface Block {}

    record Text(String text) implements Block {}

    record ToolUse(String id, String name, JsonNode input) implements Block {}
}
