package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.provider.SessionTranscripts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A thread's transcript ({@code CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl}), which {@code
 * thread/resume} reads. It lives in the workdir's {@code CODEX_HOME}, which an earlier task's approved command can
 * rewrite, and Codex 0.171 restores from it, besides the conversation, session state no resume parameter overrides
 * (probe R): the base instructions of {@code session_meta} (in place of Codex's own), its {@code dynamic_tools}
 * (offered to the model, their descriptions with them) and the developer instructions of the collaboration mode
 * ({@code thread_settings_applied}, {@code turn_context}); probe S added the capability roots of {@code session_meta}
 * ({@code selected_capability_roots}: a root's skills reached the model), and the transcripts of sub-agents, threads of
 * their own that {@code resume_agent} restores from theirs, in a new task too (probe S2: it finds an earlier task's
 * sub-agent by its id); probe U found Codex reading a thread's transcript wherever its state database's row pointed
 * (that database is now fresh in each child, {@link CodexCommandLine#argv}), at any depth of {@code sessions/} and
 * {@code archived_sessions/}, compressed, or through a link. Before each child starts, those are taken out of every
 * transcript: Codex then uses its own
 * instructions, offers no dynamic tool (ServerFS declares none), no capability root (ServerFS selects none) and the
 * mode's built-in instructions, as on the thread's first turn.
 */
final class CodexRollout {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How deep beneath {@code sessions/} transcripts are looked for: Codex's own are 3 deep ({@code YYYY/MM/DD}). */
    static final int DEPTH = 8;

    private CodexRollout() {}

    /**
     * Takes the session state above out of every transcript in {@code codexHome}'s {@code sessions/} and {@code
     * archived_sessions/}, the thread's and any other a task could resume (a sub-agent's, by {@code resume_agent}), at
     * any depth, without following a link and only when something changed ({@link SessionTranscripts#putRight}): Codex
     * 0.171 finds a thread's transcript by the id in its name anywhere beneath either (a rewritten transcript moved to
     * {@code sessions/forged/} or into {@code archived_sessions/} was resumed, probe U). A compressed transcript
     * ({@code rollout-*.jsonl.zst}), which Codex reads in place of a missing {@code .jsonl} but cannot be rewritten
     * here, and a symbolic link, which Codex follows, are removed: Codex, its compression off ({@link
     * CodexCommandLine#argv}), makes neither, and both had brought a rewritten transcript's session state back (probe
     * U). One a process holds open is a task's running beside this one, left to it, unless it is {@code resumed}'s,
     * the thread this child continues, which no other task runs. A transcript that cannot be rewritten, a name that
     * cannot be removed or a directory deeper than {@link #DEPTH} fails the task: a continuation {@code
     * AGENT_SESSION_NOT_RESUMABLE}, a new task {@code AGENT_PROVIDER_ERROR}.
     */
    static void forgetSessionState(Path codexHome, Optional<String> resumed) {
        Optional<String> own = resumed.map(thread -> "-" + thread + ".jsonl");
        try {
            for (String directory : List.of("sessions", "archived_sessions")) {
                SessionTranscripts.putRight(
                        codexHome,
                        directory,
                        DEPTH,
                        name -> name.startsWith("rollout-") && name.endsWith(".jsonl"),
                        name -> name.startsWith("rollout-") && name.endsWith(".jsonl.zst"),
                        name -> own.filter(name::endsWith).isEmpty(),
                        line -> Optional.of(withoutSessionState(line)));
            }
        } catch (IOException e) {
            throw new ServerFsException(
                    resumed.isPresent() ? ErrorCode.AGENT_SESSION_NOT_RESUMABLE : ErrorCode.AGENT_PROVIDER_ERROR,
                    "the workdir's Codex transcripts could not be checked");
        }
    }

    /** {@code line} without the session state above; unchanged (the same string) when it has none. */
    static String withoutSessionState(String line) {
        if (!line.contains("session_meta")
                && !line.contains("thread_settings_applied")
                && !line.contains("turn_context")) {
            return line;
        }
        JsonNode record;
        try {
            record = JSON.readTree(line);
        } catch (JsonProcessingException e) {
            return line;
        }
        if (!(record instanceof ObjectNode r) || !(r.get("payload") instanceof ObjectNode payload)) {
            return line;
        }
        boolean changed = switch (r.path("type").asText()) {
            case "session_meta" ->
                payload.remove("base_instructions") != null
                        | payload.remove("dynamic_tools") != null
                        | payload.remove("selected_capability_roots") != null;
            case "turn_context" -> forgetModeInstructions(payload);
            case "event_msg" ->
                payload.path("type").asText().equals("thread_settings_applied")
                        && forgetModeInstructions(payload.path("thread_settings"));
            default -> false;
        };
        return changed ? r.toString() : line;
    }

    private static boolean forgetModeInstructions(JsonNode settings) {
        if (settings.path("collaboration_mode").path("settings") instanceof ObjectNode mode
                && mode.hasNonNull("developer_instructions")) {
            mode.putNull("developer_instructions");
            return true;
        }
        return false;
    }
}
