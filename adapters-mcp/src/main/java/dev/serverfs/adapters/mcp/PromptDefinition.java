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
public record PromptDefinition(
        String name,
        String description,
        List<Argument> arguments,
        Function<Map<String, String>, List<Message>> handler) {

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
}
