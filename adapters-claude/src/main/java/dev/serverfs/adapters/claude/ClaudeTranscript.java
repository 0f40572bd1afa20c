package dev.serverfs.adapters.claude;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.provider.SessionTranscripts;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A Claude session's transcript ({@code projects/<cwd>/<session>.jsonl} in the configuration directory), put right
 * before a continuation resumes it. Claude restores session state from lines of the transcript, not only the
 * conversation: a {@code worktree-state} line made a continuation's working directory whatever directory it named
 * (Claude then read the login's copy there without asking), a {@code mode} line put it in coordinator mode (no Bash
 * any more), and any task can write those lines, the directory being the workdir's own and writable (probes P, Q).
 * So the transcript keeps only the lines whose {@code type} is one of {@link #KEPT}, what Claude 2.1.332 itself wrote
 * in the sessions ServerFS runs, less the attachments that are records of session state ({@link #RECORDS}: a planted
 * {@code prompt_snapshot} became a continuation's system prompt); every other line is removed.
 *
 * <p>The transcript is looked for in every directory of {@code projects/}, not only the one Claude names after the
 * working directory (its name is the path with every character but ASCII letters and digits replaced by {@code -},
 * and a hash Claude computes itself past 200 characters): a line in a session's transcript elsewhere must not count
 * either. {@link SessionTranscripts} reads and replaces it without following a link.
 */
final class ClaudeTranscript {
    /**
     * The line types Claude 2.1.332 wrote in the transcripts of sessions run with ServerFS' argv and environment (a
     * plain turn, an approved and a denied Bash, a Write and an Edit, a question, an interrupted turn, an API error,
     * and continuations of each): the conversation ({@code user}, {@code assistant}, {@code attachment}, {@code
     * system}) and its own bookkeeping. Not {@code mode}: Claude wrote {@code normal} there at each resume, which is
     * the mode a session without the line has.
     */
    static final Set<String> KEPT = Set.of(
            "user",
            "assistant",
            "attachment",
            "system",
            "queue-operation",
            "last-prompt",
            "cost-state",
            "atis-latch",
            "tools-used",
            "api-request",
            "api-request-blob",
            "api-request-shape");

    /**
     * The attachments Claude 2.1.332 itself treats as records rather than conversation that carry session state: it
     * writes a {@code prompt_snapshot} at every turn and restores the system prompt from it (a planted one became a
     * continuation's system prompt, probe Q), the others record the tools offered, the prompt's rendering and the
     * organisation the session belongs to. Removed; Claude makes them anew.
     */
    static final Set<String> RECORDS = Set.of(
            "prompt_snapshot", "prompt_render_point", "deferred_tools_record", "tool_offer_record", "credential_org");

    private static final Pattern SESSION = Pattern.compile("[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClaudeTranscript() {}

    /**
     * Removes from session {@code sessionId}'s transcript in {@code configurationDirectory} every line Claude did not
     * write itself (see {@link #KEPT}), in every directory of {@code projects/} ({@link SessionTranscripts}). A session
     * id that is not a UUID names no file: nothing happens. A transcript that needs a rewrite that fails → {@code
     * AGENT_SESSION_NOT_RESUMABLE}.
     */
    static void clean(Path configurationDirectory, String sessionId) {
        if (!SESSION.matcher(sessionId).matches()) {
            return;
        }
        String name = sessionId + ".jsonl";
        try {
            SessionTranscripts.rewrite(
                    configurationDirectory,
                    "projects",
                    1,
                    name::equals,
                    held -> false, // the session resumed is no other task's: put right, held open or not
                    l -> kept(l) ? Optional.of(l) : Optional.empty());
        } catch (IOException e) {
            throw new ServerFsException(
                    ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "the Claude session could not be prepared for resuming");
        }
    }

    /** A JSON object whose {@code type} is one of {@link #KEPT}, and no attachment of the {@link #RECORDS}. */
    static boolean kept(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            return node != null
                    && node.isObject()
                    && KEPT.contains(node.path("type").asText(""))
                    && !RECORDS.contains(node.path("attachment").path("type").asText(""));
        } catch (IOException e) {
            return false;
        }
    }
}
