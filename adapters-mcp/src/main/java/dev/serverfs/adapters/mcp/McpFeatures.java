package dev.serverfs.adapters.mcp;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a server offers besides its tools: prompts, resources beside the {@code serverfs://} file template, and
 * argument completion. ServerFS's {@code serve} offers none of them ({@link #NONE}); each is announced in the
 * capabilities only when present.
 */
public record McpFeatures(
        List<PromptDefinition> prompts,
        Optional<ResourceProvider> resources,
        Optional<CompletionProvider> completions) {

    /** No prompts, no extra resources, no completion. */
    public static final McpFeatures NONE = new McpFeatures(List.of(), Optional.empty(), Optional.empty());

    public McpFeatures {
        prompts = List.copyOf(prompts);
        Objects.requireNonNull(resources, "resources");
        Objects.requireNonNull(completions, "completions");
    }
}
