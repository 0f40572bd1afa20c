package dev.serverfs.adapters.mcp;

import java.util.List;
import java.util.Objects;

/**
 * Argument completion (MCP server/utilities/completion): suggestions for one argument of a prompt or resource
 * template, given what the user typed so far. Only a server given one announces the {@code completions}
 * capability and answers {@code completion/complete}; at most 100 values are sent.
 */
@FunctionalInterface
public interface CompletionProvider {

    /** Suggested values for {@code argument} of {@code ref}, best first. */
    List<String> complete(Reference ref, String argument, String value);

    /**
     * What is being completed: {@code ref/prompt} with a prompt's name, or {@code ref/resource} with a template's
     * URI.
     */
    record Reference(String type, String name) {
        public Reference {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(name, "name");
        }
    }
}
