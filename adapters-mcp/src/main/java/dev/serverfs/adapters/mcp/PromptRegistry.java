package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.workdir.AgentText;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The prompts this process offers, in registration order, and the answers to {@code prompts/list} and {@code
 * prompts/get} (MCP server/prompts: an unknown prompt or a missing required argument is -32602). Fails at start-up on
 * a duplicate name.
 */
final class PromptRegistry {

    private final Map<String, PromptDefinition> prompts = new LinkedHashMap<>();

    PromptRegistry(Collection<PromptDefinition> definitions) {
        for (PromptDefinition prompt : definitions) {
            if (prompts.putIfAbsent(prompt.name(), prompt) != null) {
                throw new IllegalStateException("prompt registered twice: " + prompt.name());
            }
        }
    }

    boolean isEmpty() {
        return prompts.isEmpty();
    }

    Optional<PromptDefinition> find(String name) {
        return Optional.ofNullable(prompts.get(name));
    }

    ObjectNode list(JsonNode id) {
        ObjectNode result = Json.object();
        ArrayNode list = result.putArray("prompts");
        for (PromptDefinition prompt : prompts.values()) {
            ObjectNode p = list.addObject();
            p.put("name", prompt.name());
            p.put("description", prompt.description());
            if (!prompt.arguments().isEmpty()) {
                ArrayNode arguments = p.putArray("arguments");
                prompt.arguments()
                        .forEach(a -> arguments
                                .addObject()
                                .put("name", a.name())
                                .put("description", a.description())
                                .put("required", a.required()));
            }
        }
        return JsonRpc.result(id, result);
    }

    /**
     * One round of a {@code prompts/get}: the prompt's messages, or {@code inputNeeded}'s answer when the prompt asks
     * for client input in {@code round}.
     */
    ObjectNode get(JsonNode id, JsonNode params, InputRound round, Function<InputRequired, ObjectNode> inputNeeded) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "prompts/get needs params.name");
        }
        PromptDefinition prompt = prompts.get(name.textValue());
        if (prompt == null) {
            return JsonRpc.error(
                    id, JsonRpc.INVALID_PARAMS, "Unknown prompt: " + AgentText.printable(name.textValue()));
        }
        JsonNode raw = params.get("arguments");
        if (raw != null && !raw.isNull() && !raw.isObject()) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Prompt arguments must be an object of strings");
        }
        Map<String, String> arguments = new LinkedHashMap<>();
        if (raw instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                if (!e.getValue().isTextual()) {
                    return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Prompt arguments must be an object of strings");
                }
                arguments.put(e.getKey(), e.getValue().textValue());
            }
        }
        for (PromptDefinition.Argument a : prompt.arguments()) {
            if (a.required() && !arguments.containsKey(a.name())) {
                return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "Missing required argument: " + a.name());
            }
        }
        PromptReply reply;
        try {
            reply = prompt.handler().reply(Map.copyOf(arguments), round);
        } catch (ServerFsException e) {
            return JsonRpc.error(id, JsonRpc.INVALID_PARAMS, e.agentText());
        }
        return switch (reply) {
            case InputRequired needed -> inputNeeded.apply(needed);
            case PromptReply.Complete complete -> JsonRpc.result(id, messages(prompt, complete.messages()));
        };
    }

    private static ObjectNode messages(PromptDefinition prompt, List<PromptDefinition.Message> messages) {
        ObjectNode result = Json.object();
        result.put("description", prompt.description());
        ArrayNode list = result.putArray("messages");
        for (PromptDefinition.Message m : messages) {
            ObjectNode message = list.addObject();
            message.put("role", m.role().wire());
            WireContent.write(message.putObject("content"), m.content());
        }
        return result;
    }
}
