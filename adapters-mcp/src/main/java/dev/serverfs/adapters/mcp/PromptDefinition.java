package dev.serverfs.adapters.mcp;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * One prompt as data (MCP server/prompts): what {@code prompts/list} publishes (name, description, arguments) and
 * the handler {@code prompts/get} calls with the client's string arguments, every required one present. A handler
 * refuses bad arguments with a {@link dev.serverfs.domain.error.ServerFsException} (JSON-RPC -32602). ServerFS
 * itself ships no prompts; a server with none announces no prompts capability to session clients.
 */
public record PromptDefinition(String name, String description, List<Argument> arguments, Handler handler) {

    /**
     * Answers one round of a {@code prompts/get} (2026-07-28 basic/patterns/mrtr): the messages, or
     * {@link InputRequired} to ask the client first, as a tool's {@link McpTool#reply} does. Session requests get a
     * round that declares nothing.
     */
    @FunctionalInterface
    public interface Handler {
        PromptReply reply(Map<String, String> arguments, InputRound round);
    }

    /** One templating argument of a prompt. */
    public record Argument(String name, String description, boolean required) {
        public Argument {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
        }
    }

    /** Who a prompt message is from (MCP {@code Role}). */
    public enum Role {
        USER("user"),
        ASSISTANT("assistant");

        private final String wire;

        Role(String wire) {
            this.wire = wire;
        }

        String wire() {
            return wire;
        }
    }

    /** One message of a prompt's result. */
    public record Message(Role role, ContentBlock content) {
        public Message {
            Objects.requireNonNull(role, "role");
            Objects.requireNonNull(content, "content");
        }
    }

    public PromptDefinition {
        Objects.requireNonNull(name, "name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a prompt needs a name");
        }
        Objects.requireNonNull(description, "description");
        arguments = List.copyOf(arguments);
        Objects.requireNonNull(handler, "handler");
    }

    /** A prompt that never needs client input: {@code messages} maps the arguments to its messages. */
    public PromptDefinition(
            String name,
            String description,
            List<Argument> arguments,
            Function<Map<String, String>, List<Message>> messages) {
        this(name, description, arguments, complete(messages));
    }

    private static Handler complete(Function<Map<String, String>, List<Message>> messages) {
        Objects.requireNonNull(messages, "messages");
        return (arguments, round) -> new PromptReply.Complete(messages.apply(arguments));
    }
}
