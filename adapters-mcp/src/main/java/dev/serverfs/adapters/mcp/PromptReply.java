package dev.serverfs.adapters.mcp;

import java.util.List;

/**
 * What a prompt answers one round of {@code prompts/get} with (2026-07-28 {@code resultType}): its messages, or
 * {@link InputRequired} when it needs client input first. Only stateless requests can carry the second; see
 * {@link PromptDefinition.Handler}.
 */
public sealed interface PromptReply permits PromptReply.Complete, InputRequired {

    /** The prompt finished with {@code messages}. */
    record Complete(List<PromptDefinition.Message> messages) implements PromptReply {
        public Complete {
            messages = List.copyOf(messages);
        }
    }
}
