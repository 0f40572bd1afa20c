package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;

/**
 * Whose work a Codex notification is: the task's own turn, one of the sub-agents Codex tied to it, or nobody's.
 * A sub-agent ({@code multi_agent_v1.spawn_agent}) runs in a thread of its own, for which Codex 0.171 sends no
 * {@code thread/started}. A thread is the task's sub-agent only once Codex tied it to the task: a turn of it started
 * whose {@code rootTurnId} ("the first turn in the chain of work that led to this turn") is the task's turn, or a
 * thread of the task spawned or resumed it (a completed {@code collabAgentToolCall}, {@code receiverThreadIds}). Every
 * turn of a tied thread is the task's. Sub-agents are numbered from 1 in the order they were tied. Used by the
 * reader thread only.
 */
final class CodexThreads {
    /** The task's own thread and turn. */
    static final int MAIN = 0;
    /** Another thread, or another turn of the task's thread. */
    static final int NONE = -1;

    private final Map<String, Integer> subagents = new HashMap<>();
    /** The task's turn as its {@code turn/started} named it: the reader may see it before the turn/start answer. */
    private String started;

    /**
     * Learns the tie a notification makes, if any; {@code thread} and {@code turn} are the task's ({@code turn} null
     * until the answer to {@code turn/start} is in).
     */
    void learn(String method, JsonNode params, String thread, String turn) {
        switch (method) {
            case "turn/started" -> {
                String id = params.path("threadId").asText("");
                String root = params.path("turn").path("rootTurnId").asText("");
                if (id.equals(thread)) {
                    started = params.path("turn").path("id").asText(null);
                } else if (!root.isEmpty() && root.equals(turn != null ? turn : started)) {
                    tie(id, thread);
                }
            }
            case "item/completed" -> {
                JsonNode item = params.path("item");
                String tool = item.path("tool").asText("");
                if (item.path("type").asText("").equals("collabAgentToolCall")
                        && (tool.equals("spawnAgent") || tool.equals("resumeAgent"))
                        && origin(params, thread, turn) != NONE) {
                    item.path("receiverThreadIds").forEach(id -> tie(id.asText(""), thread));
                }
            }
            default -> {
                // no other notification ties a thread
            }
        }
    }

    /**
     * {@link #MAIN} for the task's thread and turn (or a notification naming no thread), {@code n} for the task's
     * {@code n}-th sub-agent, else {@link #NONE}.
     */
    int origin(JsonNode params, String thread, String turn) {
        String t = params.path("threadId").asText(null);
        String u = params.path("turnId").asText(null);
        if (t == null || t.equals(thread)) {
            return u == null || turn == null || u.equals(turn) ? MAIN : NONE;
        }
        return subagents.getOrDefault(t, NONE);
    }

    private void tie(String id, String thread) {
        if (!id.isEmpty() && !id.equals(thread)) {
            subagents.putIfAbsent(id, subagents.size() + 1);
        }
    }
}
