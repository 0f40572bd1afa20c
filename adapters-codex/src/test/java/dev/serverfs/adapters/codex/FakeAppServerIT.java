package dev.serverfs.adapters.codex;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.out.ProviderView;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.application.testing.RecordingRunContext;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.ProviderSandbox;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transport failures of {@link CodexAgentRuntime} against real child processes: {@code sh} scripts that speak
 * just enough of the app-server's JSON-RPC to reach each failure (the real binary cannot be made to time out, answer
 * an error or write an endless line on cue). Each turn must end with the right code, and only after its child exited.
 */
class FakeAppServerIT {
    private static final String INIT = "read -r l; echo '{\"id\":\"1\",\"result\":{\"userAgent\":\"x/0.169.0\"}}';"
            + " read -r l;"; // initialize, then the initialized notification
    private static final String THREAD = " read -r l; echo '{\"id\":\"2\",\"result\":{\"thread\":{\"id\":\"th_1\"}}}';";
    private static final String TURN = " read -r l; echo '{\"id\":\"3\",\"result\":{\"turn\":{\"id\":\"tu_1\"}}}';";

    @TempDir
    Path dir;

    private CodexAgentRuntime runtime(String script, Duration timeout, int maxBytes) throws Exception {
        Path bin = dir.resolve("fake-codex");
        Files.writeString(bin, "#!/bin/sh\n" + script + "\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwx------"));
        return new CodexAgentRuntime(
                new CodexSettings(bin.toString(), Optional.empty(), timeout, maxBytes, Map.of("PATH", "/usr/bin:/bin")),
                ProviderSandbox.unconfined());
    }

    private TurnRequest request(Optional<NativeIds> resume) {
        return new TurnRequest(
                new TaskId("agt_" + "3".repeat(24)),
                "Say hello",
                dir,
                new ProviderView(dir, dir, true, List.of()),
                TaskProfile.WORKSPACE_WRITE,
                resume,
                Instant.now().plusSeconds(60));
    }

    private static ErrorCode failure(CodexAgentRuntime runtime, TurnRequest request, RecordingRunContext context) {
        ServerFsException e = assertThrows(ServerFsException.class, () -> runtime.runTurn(request, context));
        assertTrue(context.childGone(), "the turn ended only after its child exited");
        return e.code();
    }

    @Test
    void a_request_without_an_answer_in_time_is_disconnected() throws Exception {
        CodexAgentRuntime runtime = runtime("exec cat > /dev/null", Duration.ofSeconds(1), 1 << 20);
        assertEquals(
                ErrorCode.AGENT_PROVIDER_DISCONNECTED,
                failure(runtime, request(Optional.empty()), new RecordingRunContext()));
    }

    @Test
    void a_json_rpc_error_is_a_provider_error() throws Exception {
        CodexAgentRuntime runtime = runtime(
                INIT
                        + " read -r l; echo '{\"id\":\"2\",\"error\":{\"code\":-32600,\"message\":\"no\"}}'; cat >/dev/null",
                Duration.ofSeconds(5),
                1 << 20);
        assertEquals(
                ErrorCode.AGENT_PROVIDER_ERROR, failure(runtime, request(Optional.empty()), new RecordingRunContext()));
    }

    @Test
    void a_child_that_exits_mid_turn_is_disconnected() throws Exception {
        CodexAgentRuntime runtime = runtime(INIT + THREAD + TURN + " exit 0", Duration.ofSeconds(5), 1 << 20);
        RecordingRunContext context = new RecordingRunContext();
        assertEquals(ErrorCode.AGENT_PROVIDER_DISCONNECTED, failure(runtime, request(Optional.empty()), context));
        assertEquals(1, context.started.size(), "pid and start time went to the guard");
    }

    @Test
    void a_line_over_the_bound_fails_the_turn() throws Exception {
        CodexAgentRuntime runtime = runtime(
                INIT + THREAD + TURN + " head -c 5000 /dev/zero | tr '\\0' a; echo; cat > /dev/null",
                Duration.ofSeconds(5),
                1024);
        assertEquals(
                ErrorCode.AGENT_PROVIDER_ERROR, failure(runtime, request(Optional.empty()), new RecordingRunContext()));
    }

    @Test
    void a_resume_that_names_another_thread_is_not_resumable() throws Exception {
        CodexAgentRuntime runtime = runtime(INIT + THREAD + " cat > /dev/null", Duration.ofSeconds(5), 1 << 20);
        NativeIds earlier = new NativeIds(Optional.of("th_earlier"), Optional.empty());
        assertEquals(
                ErrorCode.AGENT_SESSION_NOT_RESUMABLE,
                failure(runtime, request(Optional.of(earlier)), new RecordingRunContext()));
    }

    @Test
    void an_unknown_server_request_is_answered_method_not_found_and_the_turn_completes() throws Exception {
        Path replies = dir.resolve("replies.jsonl");
        CodexAgentRuntime runtime = runtime(
                INIT + THREAD + TURN
                        + " echo '{\"id\":7,\"method\":\"mcpServer/elicitation/request\",\"params\":{}}';"
                        + " read -r reply; echo \"$reply\" > " + replies + ";"
                        + message("th_1", "tu_1", "m1", "Hi", "final_answer")
                        + message("th_1", "tu_1", "m2", "PS", "")
                        + turnCompleted("th_1", "tu_1")
                        + " cat > /dev/null",
                Duration.ofSeconds(5),
                1 << 20);
        RecordingRunContext context = new RecordingRunContext();
        TurnOutcome outcome = runtime.runTurn(request(Optional.empty()), context);
        assertEquals("Hi", outcome.finalResponse(), "the last final_answer wins over a later plain message");
        assertEquals(Optional.of("th_1"), outcome.nativeIds().sessionId());
        String reply = Files.readString(replies);
        assertTrue(reply.contains("\"id\":7") && reply.contains("-32601"), reply);
        assertEquals(List.of("agent.message", "agent.message"), context.events);
        assertTrue(context.childGone());
    }

    @Test
    void a_sub_agents_command_is_an_event_but_its_final_answer_is_not_the_tasks_and_a_strangers_items_are_dropped()
            throws Exception {
        String main = "{\"method\":\"turn/started\",\"params\":{\"threadId\":\"th_1\","
                + "\"turn\":{\"id\":\"tu_1\",\"rootTurnId\":\"tu_1\",\"status\":\"inProgress\"}}}";
        String sub = "{\"method\":\"turn/started\",\"params\":{\"threadId\":\"th_sub\","
                + "\"turn\":{\"id\":\"tu_sub\",\"rootTurnId\":\"tu_1\",\"status\":\"inProgress\"}}}";
        String stranger = "{\"method\":\"turn/started\",\"params\":{\"threadId\":\"th_x\","
                + "\"turn\":{\"id\":\"tu_x\",\"rootTurnId\":\"tu_x\",\"status\":\"inProgress\"}}}";
        CodexAgentRuntime runtime = runtime(
                INIT + THREAD + TURN
                        + " echo '" + main + "'; echo '" + sub + "'; echo '" + stranger + "';"
                        + commandItem("th_sub", "tu_sub") + commandItem("th_x", "tu_x")
                        + message("th_1", "tu_1", "m1", "Main", "final_answer")
                        + message("th_sub", "tu_sub", "m2", "Sub", "final_answer")
                        + turnCompleted("th_sub", "tu_sub")
                        + turnCompleted("th_1", "tu_1")
                        + " cat > /dev/null",
                Duration.ofSeconds(5),
                1 << 20);
        RecordingRunContext context = new RecordingRunContext();
        TurnOutcome outcome = runtime.runTurn(request(Optional.empty()), context);
        assertEquals("Main", outcome.finalResponse(), "a sub-agent's final_answer is not the task's");
        assertEquals(
                List.of("turn.started", "item.completed", "agent.message"),
                context.events,
                "the stranger's command is dropped");
    }

    /** An {@code agentMessage} item completed; {@code phase} empty for none. */
    private static String message(String thread, String turn, String id, String text, String phase) {
        return " echo '{\"method\":\"item/completed\",\"params\":{\"threadId\":\"" + thread + "\",\"turnId\":\""
                + turn + "\",\"item\":{\"type\":\"agentMessage\",\"id\":\"" + id + "\",\"text\":\"" + text
                + "\"" + (phase.isEmpty() ? "" : ",\"phase\":\"" + phase + "\"") + "}}}';";
    }

    private static String turnCompleted(String thread, String turn) {
        return " echo '{\"method\":\"turn/completed\",\"params\":{\"threadId\":\"" + thread + "\",\"turn\":{\"id\":\""
                + turn + "\",\"status\":\"completed\"}}}';";
    }

    private static String commandItem(String thread, String turn) {
        return " echo '{\"method\":\"item/completed\",\"params\":{\"threadId\":\"" + thread + "\",\"turnId\":\""
                + turn + "\",\"item\":{\"type\":\"commandExecution\",\"id\":\"c\",\"command\":\"ls\","
                + "\"cwd\":\"/w\",\"status\":\"completed\",\"exitCode\":0}}}';";
    }

    @Test
    void the_probe_reads_the_version_line_and_a_missing_binary_is_unavailable() throws Exception {
        CodexAgentRuntime present =
                runtime("[ \"$1\" = --version ] && echo 'codex-cli 9.9.9'", Duration.ofSeconds(5), 1 << 20);
        assertEquals(Optional.of("9.9.9"), present.probe().version());
        assertTrue(present.probe().liveSteer());
        CodexAgentRuntime missing = new CodexAgentRuntime(
                new CodexSettings(
                        dir.resolve("no-such-codex").toString(), Optional.empty(), Duration.ofSeconds(5), Map.of()),
                ProviderSandbox.unconfined());
        assertEquals(false, missing.probe().available());
    }
}
