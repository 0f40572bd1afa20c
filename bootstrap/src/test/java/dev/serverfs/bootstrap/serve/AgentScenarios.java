package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.serverfs.adapters.sqlite.SqliteTaskStores;
import dev.serverfs.bootstrap.serve.McpTestClient.ToolCall;
import dev.serverfs.domain.task.RecoveryGuard;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Agent tools end to end, written once for both deployments (issue 14 §3): {@link AgentServeIT} runs them
 * against one {@code serverfs serve} child process hosting the Agent service, {@link AgentSplitIT} against {@code
 * serve} and {@code serverfs bridge} as two processes over the Bridge socket. Either way a real SQLite file, real
 * flock leases and guard files, and the fake runtime running each turn in a child process; the checks cover the
 * reference's two-process E2E (contract reference §11). Small lifecycle values (interaction timeout 2 s); waits are
 * bounded polls with a deadline.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AgentScenarios {
    static final Duration WAIT = AgentProbe.WAIT;

    Path root;
    Path stateDir;
    Path lockDir;
    int port;
    ServeProcess serve;
    McpTestClient mcp;
    AgentProbe probe;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        root = dir;
        stateDir = dir.resolve("state");
        lockDir = dir.resolve("locks");
        Files.createDirectories(dir.resolve("proj/src"));
        Files.writeString(dir.resolve("proj/README.md"), "hello\n");
        Files.createDirectories(dir.resolve("rev"));
        Files.createDirectories(dir.resolve("plain"));
        port = ServeProcess.freePort();
        serve = startDeployment();
        mcp = new McpTestClient(serve.awaitUrl(WAIT));
        probe = new AgentProbe(mcp, lockDir);
    }

    /** Starts this deployment's processes (after {@link #root}, the directories and {@link #port} are set): serve. */
    abstract ServeProcess startDeployment() throws Exception;

    /** Stops what {@link #startDeployment} started besides serve. */
    void stopDeployment() throws Exception {}

    /**
     * The code of a keyed submit whose starting directory is missing: the keyed submit reaches the Agent service
     * unchecked (it may be a retry), which answers the MCP code in-process and the Bridge RPC's code over the
     * socket, passed on verbatim (reference §3, §4.3).
     */
    String missingPathCodeOfAKeyedSubmit() {
        return "PATH_NOT_FOUND";
    }

    /** Long-running tasks a test started: cancelled after each test so a failure does not block the slot. */
    private final List<String> cleanup = new ArrayList<>();

    @AfterEach
    void cancel_leftovers() throws Exception {
        for (String id : cleanup) {
            mcp.call("cancel_agent_task", Map.of("task_id", id));
        }
        cleanup.clear();
        probe.awaitLeaseReleased(1);
    }

    @AfterAll
    void stop() throws Exception {
        try {
            if (serve != null) {
                serve.close();
            }
        } finally {
            stopDeployment();
        }
    }

    /** The settings both deployments share (the Agent service's and serve's). */
    Map<String, String> env(int listenPort) {
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(listenPort));
        env.put("SERVERFS_AGENT_BRIDGE_ENABLED", "true");
        env.put("SERVERFS_AGENT_ENABLE_FAKE_RUNTIME", "true");
        env.put("SERVERFS_AGENT_BRIDGE_STATE_DIR", stateDir.toString());
        env.put("SERVERFS_AGENT_LOCK_DIR", lockDir.toString());
        env.put("SERVERFS_AGENT_INTERACTION_TIMEOUT_SECONDS", "2");
        env.put("WORKDIR_01_ALIAS", "proj");
        env.put("WORKDIR_01_PATH", root.resolve("proj").toString());
        env.put("WORKDIR_01_READ_ONLY", "false");
        env.put("WORKDIR_01_AGENT_MODE", "workspace-write");
        env.put("WORKDIR_01_AGENT_RUNTIMES", "codex,fake");
        env.put("WORKDIR_02_ALIAS", "rev");
        env.put("WORKDIR_02_PATH", root.resolve("rev").toString());
        env.put("WORKDIR_02_AGENT_MODE", "review");
        env.put("WORKDIR_02_AGENT_RUNTIMES", "fake");
        env.put("WORKDIR_03_ALIAS", "plain");
        env.put("WORKDIR_03_PATH", root.resolve("plain").toString());
        return env;
    }

    // ------------------------------------------------------------------------------------------ surface

    @Test
    void the_nine_agent_tools_are_published_with_the_contract_annotations() throws Exception {
        JsonNode tools = mcp.listTools();
        Map<String, JsonNode> byName = new LinkedHashMap<>();
        tools.forEach(t -> byName.put(t.get("name").asText(), t));
        assertTrue(
                byName.keySet()
                        .containsAll(List.of(
                                "list_agent_runtimes",
                                "submit_agent_task",
                                "get_agent_task",
                                "read_agent_task_events",
                                "read_agent_task_result",
                                "respond_agent_approval",
                                "answer_agent_question",
                                "send_agent_message",
                                "cancel_agent_task")),
                byName.keySet().toString());
        assertEquals(20, byName.size(), "6 read + 5 mutation + 9 Agent tools, no binary: " + byName.keySet());
        for (String read :
                List.of("list_agent_runtimes", "get_agent_task", "read_agent_task_events", "read_agent_task_result")) {
            JsonNode a = byName.get(read).get("annotations");
            assertTrue(a.get("readOnlyHint").asBoolean(), read);
            assertFalse(a.get("openWorldHint").asBoolean(), read);
        }
        assertAnnotations(byName.get("submit_agent_task"), true, false);
        assertAnnotations(byName.get("respond_agent_approval"), true, true);
        assertAnnotations(byName.get("answer_agent_question"), false, true);
        assertAnnotations(byName.get("send_agent_message"), true, false);
        assertAnnotations(byName.get("cancel_agent_task"), true, true);
        JsonNode runtime = byName.get("submit_agent_task")
                .get("inputSchema")
                .get("properties")
                .get("runtime");
        assertEquals("[\"codex\",\"claude\",\"fake\"]", runtime.get("enum").toString());
    }

    private static void assertAnnotations(JsonNode tool, boolean destructive, boolean idempotent) {
        JsonNode a = tool.get("annotations");
        assertFalse(a.get("readOnlyHint").asBoolean());
        assertEquals(destructive, a.get("destructiveHint").asBoolean());
        assertEquals(idempotent, a.get("idempotentHint").asBoolean());
        assertTrue(a.get("openWorldHint").asBoolean());
    }

    @Test
    void list_agent_runtimes_reports_fake_available_and_the_adapterless_codex_unavailable() throws Exception {
        JsonNode runtimes = mcp.call("list_agent_runtimes", Map.of()).ok().get("runtimes");
        Map<String, JsonNode> byName = new HashMap<>();
        runtimes.forEach(r -> byName.put(r.get("name").asText(), r));
        assertEquals(Set.of("codex", "fake"), byName.keySet());
        assertFalse(byName.get("codex").get("available").asBoolean());
        assertTrue(byName.get("fake").get("available").asBoolean());
        assertEquals("phase-a", byName.get("fake").get("version").asText());
        assertEquals(
                "AGENT_RUNTIME_UNAVAILABLE",
                mcp.call("submit_agent_task", submit("proj", "codex", "complete:x"))
                        .code());
    }

    @Test
    void mcp_side_checks_refuse_before_any_task_exists() throws Exception {
        int before = rows();
        assertEquals(
                "WORKDIR_NOT_FOUND",
                mcp.call("submit_agent_task", submit("nope", "fake", "x")).code());
        assertEquals(
                "AGENT_DISABLED",
                mcp.call("submit_agent_task", submit("plain", "fake", "x")).code());
        assertEquals(
                "AGENT_RUNTIME_NOT_ALLOWED",
                mcp.call("submit_agent_task", submit("rev", "codex", "x")).code());
        assertEquals(
                "AGENT_PROFILE_NOT_ALLOWED",
                mcp.call("submit_agent_task", submit("rev", "fake", "x")).code(),
                "workspace-write above a review workdir");
        Map<String, Object> file = submit("proj", "fake", "x");
        file.put("path", "README.md");
        assertEquals("NOT_A_DIRECTORY", mcp.call("submit_agent_task", file).code());
        Map<String, Object> missing = submit("proj", "fake", "x");
        missing.put("path", "missing");
        assertEquals("PATH_NOT_FOUND", mcp.call("submit_agent_task", missing).code());
        Map<String, Object> escape = submit("proj", "fake", "x");
        escape.put("path", "../rev");
        assertFalse(mcp.call("submit_agent_task", escape).error() == null);
        assertEquals(before, rows());
    }

    @Test
    void a_bad_starting_directory_is_named_workdir_colon_path_in_both_deployments() throws Exception {
        // Contract reference §2.0: CODE: <workdir>:<path> — <message>, the same text whichever process checks the
        // directory (the Agent service in serve, or serve's own checks in front of the Bridge).
        Path link = root.resolve("proj/src-link");
        Files.createSymbolicLink(link, Path.of("src"));
        try {
            Map<String, Object> file = submit("proj", "fake", "x");
            file.put("path", "README.md");
            assertEquals(
                    "NOT_A_DIRECTORY: proj:README.md — not a directory",
                    mcp.call("submit_agent_task", file).error());
            Map<String, Object> symlink = submit("proj", "fake", "x");
            symlink.put("path", "./src-link");
            assertEquals(
                    "SYMLINK_NOT_ALLOWED: proj:src-link — symlinks are not allowed",
                    mcp.call("submit_agent_task", symlink).error());
            Map<String, Object> missing = submit("proj", "fake", "x");
            missing.put("path", "src/missing");
            assertEquals(
                    "PATH_NOT_FOUND: proj:src/missing — path not found",
                    mcp.call("submit_agent_task", missing).error());
        } finally {
            Files.delete(link);
        }
    }

    @Test
    void malformed_answers_are_tool_errors_not_protocol_errors() throws Exception {
        // A key outside the three is the reference's INVALID_QUESTION_ANSWER; a field of the wrong JSON type fails the
        // published schema (every property typed, issue 10 §15), which is INVALID_ARGUMENTS (SEP-1303, §13).
        String task = "agt_" + "0".repeat(24);
        String request = "req_" + "0".repeat(24);
        for (Map.Entry<String, Map<String, Object>> c : List.of(
                Map.entry(
                        "INVALID_QUESTION_ANSWER",
                        Map.<String, Object>of("question_id", "q1", "selected_option_ids", List.of("a"), "extra", 1)),
                Map.entry("INVALID_ARGUMENTS", Map.<String, Object>of("question_id", 7)),
                Map.entry(
                        "INVALID_ARGUMENTS",
                        Map.<String, Object>of("question_id", "q1", "selected_option_ids", List.of(1))),
                Map.entry("INVALID_ARGUMENTS", Map.<String, Object>of("question_id", "q1", "text", List.of("t"))))) {
            assertEquals(
                    c.getKey(),
                    mcp.call(
                                    "answer_agent_question",
                                    Map.of("task_id", task, "request_id", request, "answers", List.of(c.getValue())))
                            .code(),
                    c.getValue().keySet().toString());
        }
    }

    // ------------------------------------------------------------------------------------------ lifecycle

    @Test
    void a_task_runs_to_success_and_its_events_and_record_are_readable() throws Exception {
        Map<String, Object> args = submit("proj", "fake", "complete:all done");
        args.put("path", "src");
        args.put("correlation_id", "corr-1");
        JsonNode created = mcp.call("submit_agent_task", args).ok();
        assertEquals("queued", created.get("status").asText());
        String id = created.get("task_id").asText();
        assertTrue(id.matches("agt_[0-9a-f]{24}"), id);
        assertEquals("corr-1", created.get("correlation_id").asText());
        JsonNode task = probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
        assertEquals("all done", task.get("final_response").asText());
        assertEquals("src", task.get("relative_cwd").asText());
        assertEquals("inline", task.get("result").get("storage").asText());
        assertFalse(task.has("native_session_id"));
        assertEquals(
                "AGENT_RESULT_NOT_RETRIEVABLE",
                mcp.call("read_agent_task_result", Map.of("task_id", id)).code());
        JsonNode events =
                mcp.call("read_agent_task_events", Map.of("task_id", id)).ok();
        List<String> types = StreamSupport.stream(events.get("events").spliterator(), false)
                .map(e -> e.get("event_type").asText())
                .toList();
        assertTrue(types.contains("turn.started"), types.toString());
        assertTrue(types.contains("task.completed"), types.toString());
        assertEquals(
                "INVALID_LIMIT",
                mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 0))
                        .code());
        assertEquals(
                "AGENT_TASK_TERMINAL",
                mcp.call("send_agent_message", Map.of("task_id", id, "message", "hi"))
                        .code());
        assertEquals(
                "succeeded",
                mcp.call("cancel_agent_task", Map.of("task_id", id))
                        .ok()
                        .get("status")
                        .asText(),
                "cancel of a finished task is repeat-safe");
        probe.awaitNoGuard(1);
    }

    @Test
    void approval_round_trip_and_cancel_task_is_terminal_before_the_reply() throws Exception {
        String id = created(mcp.call("submit_agent_task", submit("proj", "fake", "approval:make test")));
        cleanup.add(id);
        JsonNode waiting = probe.awaitTask(id, t -> t.get("status").asText().equals("waiting_for_approval"));
        String request = waiting.get("pending_request").get("request_id").asText();
        JsonNode ack = mcp.call(
                        "respond_agent_approval",
                        Map.of("task_id", id, "request_id", request, "decision", "approve_once"))
                .ok();
        assertTrue(ack.get("resolved").asBoolean());
        JsonNode done = probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
        assertTrue(done.get("final_response").asText().contains("make test"));
        assertEquals(
                "REQUEST_ALREADY_RESOLVED",
                mcp.call(
                                "respond_agent_approval",
                                Map.of("task_id", id, "request_id", request, "decision", "approve_once"))
                        .code());
        // The lease goes once the runner has drained, a moment after the status is terminal (docs/AGENTS.md): a
        // submit in between is WORKDIR_BUSY, never queued (reference §3.2), which a loaded machine can hit.
        probe.awaitLeaseReleased(1);

        String second = created(mcp.call("submit_agent_task", submit("proj", "fake", "approval:rm -rf build")));
        String r2 = probe.awaitTask(second, t -> t.get("status").asText().equals("waiting_for_approval"))
                .get("pending_request")
                .get("request_id")
                .asText();
        mcp.call("respond_agent_approval", Map.of("task_id", second, "request_id", r2, "decision", "cancel_task"))
                .ok();
        assertEquals("cancelled", probe.task(second).get("status").asText(), "persisted before the reply");
        probe.awaitLeaseReleased(1);
    }

    @Test
    void an_unanswered_question_times_out_interrupts_the_task_stales_the_request_and_releases_the_slot()
            throws Exception {
        String id = created(mcp.call("submit_agent_task", submit("proj", "fake", "question:which?")));
        JsonNode waiting = probe.awaitTask(id, t -> t.get("status").asText().equals("waiting_for_question"));
        String request = waiting.get("pending_request").get("request_id").asText();
        assertFalse(waiting.get("pending_request").get("expires_at").isNull());
        JsonNode ended = probe.awaitTask(id, t -> t.get("status").asText().equals("interrupted"));
        assertEquals("AGENT_INTERACTION_TIMED_OUT", ended.get("error_code").asText());
        List<Map<String, Object>> answers = List.of(Map.of("question_id", "q1", "selected_option_ids", List.of("a")));
        assertEquals(
                "REQUEST_STALE",
                mcp.call("answer_agent_question", Map.of("task_id", id, "request_id", request, "answers", answers))
                        .code());
        probe.awaitLeaseReleased(1);
        // v0.7.3 §5 step 8: cleanup decided on the guard only after it saw the provider exit, so the guard is gone
        // by the time the lease is released, with no submit or mutation needed to reconcile it.
        assertFalse(Files.exists(lockDir.resolve("active").resolve("01")), "the guard is gone with the lease");
        String next = created(mcp.call("submit_agent_task", submit("proj", "fake", "complete:after")));
        probe.awaitTask(next, t -> t.get("status").asText().equals("succeeded"));
    }

    @Test
    void a_question_answered_in_time_resumes_the_task() throws Exception {
        String hostPath = root.resolve("rev").resolve("src").toString();
        String id = created(
                mcp.call("submit_agent_task", submit("rev", "fake", "question:which file in " + hostPath, "review")));
        JsonNode pending = probe.awaitTask(id, t -> t.get("status").asText().equals("waiting_for_question"))
                .get("pending_request");
        String request = pending.get("request_id").asText();
        assertEquals(
                "which file in <workdir>/src",
                pending.at("/payload/questions/0/prompt").asText(),
                "question payloads are host-path redacted like events");
        List<Map<String, Object>> answers = List.of(Map.of("question_id", "q1", "selected_option_ids", List.of("a")));
        assertTrue(mcp.call("answer_agent_question", Map.of("task_id", id, "request_id", request, "answers", answers))
                .ok()
                .get("resolved")
                .asBoolean());
        probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
    }

    @Test
    void an_unanswered_approval_times_out_interrupts_the_task_and_a_late_reply_is_stale() throws Exception {
        String id = created(mcp.call("submit_agent_task", submit("proj", "fake", "approval:make build")));
        String request = probe.awaitTask(id, t -> t.get("status").asText().equals("waiting_for_approval"))
                .get("pending_request")
                .get("request_id")
                .asText();
        JsonNode ended = probe.awaitTask(id, t -> t.get("status").asText().equals("interrupted"));
        assertEquals("AGENT_INTERACTION_TIMED_OUT", ended.get("error_code").asText());
        assertEquals(
                "REQUEST_STALE",
                mcp.call(
                                "respond_agent_approval",
                                Map.of("task_id", id, "request_id", request, "decision", "approve_once"))
                        .code());
        probe.awaitLeaseReleased(1);
    }

    @Test
    void cancel_is_persisted_before_it_returns_is_repeat_safe_and_the_lease_gates_mutations_until_released()
            throws Exception {
        String id = created(mcp.call("submit_agent_task", submit("proj", "fake", "wait:")));
        cleanup.add(id);
        probe.awaitTask(id, t -> t.get("status").asText().equals("running"));
        assertEquals(
                "WORKDIR_BUSY",
                mcp.call("create_text_file", Map.of("workdir", "proj", "path", "busy.txt", "content", "x"))
                        .code(),
                "a workspace-write task holds the writer lease");
        assertFalse(Files.exists(root.resolve("proj/busy.txt")), "nothing written");
        assertEquals(
                "WORKDIR_BUSY",
                mcp.call("submit_agent_task", submit("proj", "fake", "complete:second"))
                        .code(),
                "a second workspace-write task is refused, never queued");
        assertEquals(
                "cancelled",
                mcp.call("cancel_agent_task", Map.of("task_id", id))
                        .ok()
                        .get("status")
                        .asText());
        assertEquals("cancelled", probe.task(id).get("status").asText(), "persisted before the reply");
        assertEquals(
                "cancelled",
                mcp.call("cancel_agent_task", Map.of("task_id", id))
                        .ok()
                        .get("status")
                        .asText(),
                "repeat-safe");
        probe.awaitLeaseReleased(1);
        probe.awaitNoGuard(1);
        mcp.call("create_text_file", Map.of("workdir", "proj", "path", "busy.txt", "content", "x"))
                .ok();
        assertEquals("x", Files.readString(root.resolve("proj/busy.txt")), "the release restores mutations");
        mcp.call(
                        "delete_file",
                        Map.of("workdir", "proj", "path", "busy.txt", "expected_revision", revision("busy.txt")))
                .ok();
    }

    @Test
    void the_filesystem_read_and_mutation_channels_keep_working_with_revisions() throws Exception {
        JsonNode read = mcp.call("read_text_file", Map.of("workdir", "proj", "path", "README.md"))
                .ok();
        assertEquals("hello\n", read.get("content").asText());
        assertTrue(read.get("revision").asText().startsWith("v1:"), read.toString());
        mcp.call("create_text_file", Map.of("workdir", "proj", "path", "channel.txt", "content", "a\n"))
                .ok();
        mcp.call(
                        "edit_text_file",
                        Map.of(
                                "workdir",
                                "proj",
                                "path",
                                "channel.txt",
                                "expected_revision",
                                revision("channel.txt"),
                                "edits",
                                List.of(Map.of("old_text", "a", "new_text", "b"))))
                .ok();
        assertEquals("b\n", Files.readString(root.resolve("proj/channel.txt")));
        mcp.call(
                        "delete_file",
                        Map.of("workdir", "proj", "path", "channel.txt", "expected_revision", revision("channel.txt")))
                .ok();
        assertFalse(Files.exists(root.resolve("proj/channel.txt")));
    }

    @Test
    void no_response_names_a_host_path_or_a_native_id_and_the_audit_log_keeps_texts_out() throws Exception {
        String prompt = "complete:secret-prompt-" + root.getFileName();
        Map<String, Object> args = submit("proj", "fake", prompt);
        args.put("path", "src");
        List<String> bodies = new ArrayList<>();
        JsonNode handle = mcp.call("submit_agent_task", args).ok();
        bodies.add(handle.toString());
        String id = handle.get("task_id").asText();
        bodies.add(probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"))
                .toString());
        bodies.add(
                mcp.call("read_agent_task_events", Map.of("task_id", id)).ok().toString());
        bodies.add(mcp.call("list_agent_runtimes", Map.of()).ok().toString());
        bodies.add(mcp.call("cancel_agent_task", Map.of("task_id", id)).ok().toString());
        bodies.add(mcp.call("send_agent_message", Map.of("task_id", id, "message", "secret-steer"))
                .error());
        String steered = created(mcp.call("submit_agent_task", submit("rev", "fake", "steer:", "review")));
        probe.awaitTask(steered, t -> t.get("status").asText().equals("running"));
        awaitOk(() -> mcp.call("send_agent_message", Map.of("task_id", steered, "message", "secret-steer")));
        probe.awaitTask(steered, t -> t.get("status").asText().equals("succeeded"));
        for (String body : bodies) {
            assertFalse(body.contains(root.toString()), body);
            assertFalse(body.contains("native_"), body);
        }
        List<String> audit = auditLines();
        for (String tool : List.of(
                "submit_agent_task",
                "get_agent_task",
                "read_agent_task_events",
                "list_agent_runtimes",
                "cancel_agent_task",
                "send_agent_message")) {
            String line = audit.stream()
                    .filter(l -> l.contains("\"tool\":\"" + tool + "\""))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no audit line for " + tool + ": " + audit));
            assertTrue(line.contains("\"duration_ms\":"), line);
            assertTrue(line.contains("\"success\":"), line);
        }
        assertTrue(
                audit.stream()
                        .anyMatch(l -> l.contains("\"tool\":\"send_agent_message\"")
                                && l.contains("\"success\":false")
                                && l.contains("\"error_code\":\"AGENT_TASK_TERMINAL\"")),
                "a failure is audited with its code: " + audit);
        String submitted = audit.stream()
                .filter(l -> l.contains("\"tool\":\"submit_agent_task\"") && l.contains(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no submit audit line: " + audit));
        assertTrue(
                submitted.contains("\"workdir\":\"proj\"")
                        && submitted.contains("\"runtime\":\"fake\"")
                        && submitted.contains("\"profile\":\"workspace-write\""),
                submitted);
        assertTrue(
                audit.stream()
                        .anyMatch(l -> l.contains("\"tool\":\"send_agent_message\"")
                                && l.contains(steered)
                                && l.contains("\"message_bytes\":12")),
                audit.toString());
        for (String line : serve.stderr()) {
            assertFalse(line.contains("secret-prompt") || line.contains("secret-steer"), line);
            assertFalse(line.contains(root.toString()), line);
        }
    }

    private List<String> auditLines() {
        return serve.stderr().stream()
                .filter(l -> l.contains("\"event\":\"tool_call\""))
                .toList();
    }

    String revision(String path) throws Exception {
        return mcp.call("stat_file", Map.of("workdir", "proj", "path", path))
                .ok()
                .get("revision")
                .asText();
    }

    // ------------------------------------------------------------------------------------------ idempotency

    @Test
    void same_key_same_inputs_returns_the_original_task_and_changed_inputs_conflict() throws Exception {
        Map<String, Object> args = submit("proj", "fake", "complete:idem", "review");
        args.put("idempotency_key", "key-conflicts");
        args.put("correlation_id", "c1");
        String id = created(mcp.call("submit_agent_task", args));
        assertEquals(id, created(mcp.call("submit_agent_task", args)));
        probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
        assertEquals(id, created(mcp.call("submit_agent_task", args)), "also after the task ended");
        Map<String, Map<String, Object>> changed = new LinkedHashMap<>();
        changed.put("prompt", with(args, "prompt", "complete:other"));
        changed.put("path", with(args, "path", "src"));
        changed.put("correlation_id", with(args, "correlation_id", "c2"));
        changed.put("workdir", with(args, "workdir", "rev"));
        changed.put("profile", with(args, "profile", "workspace-write"));
        changed.put("continue_from_task_id", with(args, "continue_from_task_id", id));
        // codex runs only as workspace-write (MCP-side rule), so the runtime change carries the profile along
        changed.put("runtime", with(with(args, "runtime", "codex"), "profile", "workspace-write"));
        int rows = rows();
        for (Map.Entry<String, Map<String, Object>> c : changed.entrySet()) {
            assertEquals(
                    "AGENT_IDEMPOTENCY_CONFLICT",
                    mcp.call("submit_agent_task", c.getValue()).code(),
                    "changed " + c.getKey());
        }
        assertEquals(rows, rows());
    }

    @Test
    void without_a_key_every_submit_creates_a_new_task() throws Exception {
        Map<String, Object> args = submit("rev", "fake", "complete:nokey", "review");
        String a = created(mcp.call("submit_agent_task", args));
        String b = created(mcp.call("submit_agent_task", args));
        assertFalse(a.equals(b));
        probe.awaitTask(a, t -> t.get("status").asText().equals("succeeded"));
        probe.awaitTask(b, t -> t.get("status").asText().equals("succeeded"));
    }

    @Test
    void fifty_concurrent_submissions_with_one_key_converge_on_one_task_one_lease_and_one_guard() throws Exception {
        int before = rows();
        Map<String, Object> args = submit("proj", "fake", "wait:");
        args.put("idempotency_key", "key-fifty");
        List<Callable<ToolCall>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            calls.add(() -> mcp.call("submit_agent_task", args));
        }
        Set<String> ids = new HashSet<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(50)) {
            for (Future<ToolCall> f : pool.invokeAll(calls)) {
                ids.add(created(f.get()));
            }
        }
        assertEquals(1, ids.size(), ids.toString());
        String id = ids.iterator().next();
        cleanup.add(id);
        assertEquals(before + 1, rows());
        RecoveryGuard guard = probe.awaitGuard(1, g -> true);
        assertEquals(id, guard.taskId().value());
        probe.awaitTask(id, t -> t.get("status").asText().equals("running"));
        assertEquals(1, turnsStarted(id));
        assertEquals(
                "cancelled",
                mcp.call("cancel_agent_task", Map.of("task_id", id))
                        .ok()
                        .get("status")
                        .asText());
        probe.awaitLeaseReleased(1);
    }

    @Test
    void a_lost_submit_response_is_recovered_by_a_retry_with_the_same_key() throws Exception {
        int before = rows();
        Map<String, Object> args = submit("proj", "fake", "wait:");
        args.put("idempotency_key", "key-lost-response");
        String body = mcp.callBody("submit_agent_task", args);
        try (ResponseDroppingProxy proxy = new ResponseDroppingProxy(port);
                Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            byte[] payload = body.getBytes(StandardCharsets.UTF_8);
            String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "MCP-Protocol-Version: 2025-06-18\r\nMcp-Session-Id: " + mcp.session() + "\r\n"
                    + "Content-Length: " + payload.length + "\r\nConnection: close\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            assertTrue(proxy.awaitDropped(60) > 0, "the server answered");
            InputStream in = socket.getInputStream();
            assertEquals(-1, in.read(), "the client never saw the response");
        }
        String id = created(mcp.call("submit_agent_task", args));
        cleanup.add(id);
        assertEquals(before + 1, rows(), "exactly one task row");
        assertEquals(id, probe.awaitGuard(1, g -> true).taskId().value(), "one guard, naming the original task");
        probe.awaitTask(id, t -> t.get("status").asText().equals("running"));
        assertEquals(1, turnsStarted(id), "exactly one provider turn");
        assertEquals(
                "WORKDIR_BUSY",
                mcp.call("submit_agent_task", submit("proj", "fake", "complete:x"))
                        .code());
        mcp.call("cancel_agent_task", Map.of("task_id", id)).ok();
        probe.awaitLeaseReleased(1);
    }

    @Test
    void a_retry_whose_path_was_removed_since_answers_the_original_task() throws Exception {
        Path gone = Files.createDirectories(root.resolve("proj/gone"));
        Map<String, Object> args = submit("proj", "fake", "complete:gone");
        args.put("path", "gone");
        args.put("idempotency_key", "key-path-removed");
        String id = created(mcp.call("submit_agent_task", args));
        probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
        probe.awaitLeaseReleased(1);
        // e.g. the task itself removed its starting directory (issue 10 item 11, v0.7.3 §3.3)
        Files.delete(gone);
        int rows = rows();
        assertEquals(id, created(mcp.call("submit_agent_task", args)), "the key is looked up before the path");
        assertEquals(
                missingPathCodeOfAKeyedSubmit(),
                mcp.call("submit_agent_task", with(args, "idempotency_key", "key-path-removed-2"))
                        .code(),
                "a new key is checked as before");
        assertEquals(rows, rows());
    }

    @Test
    void a_healthy_task_survives_a_client_that_disconnects_and_never_polls() throws Exception {
        String id;
        McpTestClient other = new McpTestClient("http://127.0.0.1:" + port + "/mcp");
        id = created(other.call("submit_agent_task", submit("proj", "fake", "steer:")));
        cleanup.add(id);
        // The submitting client goes away; a second session finds the task still running and steers it home.
        probe.awaitTask(id, t -> t.get("status").asText().equals("running"));
        awaitOk(() -> mcp.call("send_agent_message", Map.of("task_id", id, "message", "finish")));
        assertEquals(
                "steered: finish",
                probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"))
                        .get("final_response")
                        .asText());
    }

    // ------------------------------------------------------------------------------------------ helpers

    /** Waits for the task's first {@code turn.started} event, then counts them all. */
    private int turnsStarted(String id) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (countTurns(id) == 0 && Instant.now().isBefore(deadline)) {
            LockSupport.parkNanos(20_000_000);
        }
        return countTurns(id);
    }

    private int countTurns(String id) throws Exception {
        JsonNode events = mcp.call("read_agent_task_events", Map.of("task_id", id, "limit", 500))
                .ok()
                .get("events");
        int n = 0;
        for (JsonNode e : events) {
            if (e.get("event_type").asText().equals("turn.started")) {
                n++;
            }
        }
        return n;
    }

    int rows() {
        return SqliteTaskStores.listReadOnly(stateDir, true).size();
    }

    /** Retries a call while it answers AGENT_TASK_NOT_ACTIVE (the child may not be listening for steering yet). */
    void awaitOk(Callable<ToolCall> call) throws Exception {
        Instant deadline = Instant.now().plus(WAIT);
        while (true) {
            ToolCall result = call.call();
            if (result.error() == null) {
                return;
            }
            if (!result.code().equals("AGENT_TASK_NOT_ACTIVE") || Instant.now().isAfter(deadline)) {
                throw new AssertionError(result.error());
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    @Test
    void a_stateless_2026_07_28_client_submits_a_task_that_a_session_client_sees_finish() throws Exception {
        McpTestClient stateless = McpTestClient.stateless(mcp.url());

        String id = created(stateless.call("submit_agent_task", submit("proj", "fake", "complete:both eras")));
        JsonNode task = probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));

        assertEquals("both eras", task.get("final_response").asText());
        assertTrue(stateless
                .call("list_agent_runtimes", Map.of())
                .ok()
                .get("runtimes")
                .toString()
                .contains("fake"));
        assertEquals(null, stateless.session(), "no session in the stateless era");
    }

    // ------------------------------------------------------------------------------------------ MCP Tasks

    /** A stateless client that declared the Tasks extension: submit answers a task handle, the Agent task's id. */
    McpTestClient tasksClient() {
        return McpTestClient.statelessWithTasks(mcp.url());
    }

    static String handle(JsonNode created) {
        assertEquals("task", created.get("resultType").asText(), created.toString());
        assertEquals("working", created.get("status").asText(), created.toString());
        assertFalse(created.has("content"), "a task handle, not a tool result: " + created);
        return created.get("taskId").asText();
    }

    /** Polls {@code tasks/get} until its result's status is {@code status}. */
    static JsonNode awaitMcpTask(McpTestClient tasks, String id, String status) throws Exception {
        return AgentProbe.await("tasks/get " + status, () -> {
            JsonNode result = tasks.answer("tasks/get", Map.of("taskId", id)).get("result");
            return result.get("status").asText().equals(status) ? Optional.of(result) : Optional.empty();
        });
    }

    static JsonNode ack(JsonNode answer) {
        assertEquals("{\"resultType\":\"complete\"}", answer.get("result").toString(), answer.toString());
        return answer;
    }

    @Test
    void an_mcp_task_round_trips_an_approval_and_agrees_with_get_agent_task() throws Exception {
        McpTestClient tasks = tasksClient();
        String id = handle(tasks.callResult("submit_agent_task", submit("proj", "fake", "approval:make test")));
        cleanup.add(id);
        assertTrue(id.startsWith("agt_"), "the MCP task is the Agent task: " + id);
        JsonNode waiting = awaitMcpTask(tasks, id, "input_required");
        JsonNode agentView = probe.task(id);
        assertEquals("waiting_for_approval", agentView.get("status").asText());
        String request = agentView.get("pending_request").get("request_id").asText();
        JsonNode form = waiting.get("inputRequests").get(request);
        assertEquals(1, waiting.get("inputRequests").size(), waiting.toString());
        assertEquals("elicitation/create", form.get("method").asText());
        assertTrue(
                form.at("/params/requestedSchema/properties/decision/oneOf")
                        .toString()
                        .contains("\"const\":\"approve_once\""),
                form.toString());
        assertEquals("waiting_for_approval", waiting.get("statusMessage").asText());

        ack(tasks.answer(
                "tasks/update",
                Map.of(
                        "taskId",
                        id,
                        "inputResponses",
                        Map.of(request, Map.of("action", "accept", "content", Map.of("decision", "approve_once"))))));
        JsonNode done = awaitMcpTask(tasks, id, "completed");
        assertTrue(done.at("/result/content/0/text").asText().contains("make test"), done.toString());
        assertEquals("succeeded", done.at("/result/structuredContent/status").asText());
        assertEquals("succeeded", probe.task(id).get("status").asText(), "one task, two views");
        // The key is no longer outstanding: the extension ignores it; the tool path says so.
        ack(tasks.answer(
                "tasks/update", Map.of("taskId", id, "inputResponses", Map.of(request, Map.of("action", "decline")))));
        assertEquals(
                "REQUEST_ALREADY_RESOLVED",
                mcp.call(
                                "respond_agent_approval",
                                Map.of("task_id", id, "request_id", request, "decision", "approve_once"))
                        .code());
        probe.awaitLeaseReleased(1);
    }

    @Test
    void an_mcp_task_round_trips_a_question_and_an_answer_the_rules_refuse_is_invalid_params() throws Exception {
        McpTestClient tasks = tasksClient();
        String id = handle(tasks.callResult("submit_agent_task", submit("proj", "fake", "question:which?")));
        cleanup.add(id);
        JsonNode waiting = awaitMcpTask(tasks, id, "input_required");
        String request = waiting.get("inputRequests").fieldNames().next();
        JsonNode schema = waiting.at("/inputRequests/" + request + "/params/requestedSchema");
        assertEquals(
                "[{\"const\":\"a\",\"title\":\"Option A\"},{\"const\":\"b\",\"title\":\"Option B\"}]",
                schema.at("/properties/q1/oneOf").toString());
        assertEquals("string", schema.at("/properties/q1.text/type").asText(), "free text is allowed");

        JsonNode refused = tasks.answer(
                "tasks/update",
                Map.of(
                        "taskId",
                        id,
                        "inputResponses",
                        Map.of(request, Map.of("action", "accept", "content", Map.of("q1", "zzz")))));
        assertEquals(-32602, refused.at("/error/code").asInt(), refused.toString());
        assertEquals("INVALID_QUESTION_ANSWER", refused.at("/error/data/code").asText());
        assertEquals("waiting_for_question", probe.task(id).get("status").asText(), "a refused answer changes nothing");

        ack(tasks.answer(
                "tasks/update",
                Map.of(
                        "taskId",
                        id,
                        "inputResponses",
                        Map.of(request, Map.of("action", "accept", "content", Map.of("q1", "a"))))));
        JsonNode done = awaitMcpTask(tasks, id, "completed");
        assertEquals("answered: a", done.at("/result/content/0/text").asText(), done.toString());
        probe.awaitLeaseReleased(1);
    }

    @Test
    void an_mcp_task_cancel_is_terminal_first_and_a_retry_with_the_same_key_is_the_same_task() throws Exception {
        McpTestClient tasks = tasksClient();
        Map<String, Object> keyed = with(submit("proj", "fake", "wait:"), "idempotency_key", "mcp-tasks-1");
        String id = handle(tasks.callResult("submit_agent_task", keyed));
        cleanup.add(id);
        assertEquals(id, handle(tasks.callResult("submit_agent_task", keyed)), "idempotency_key: the original task");
        assertEquals(id, created(mcp.call("submit_agent_task", keyed)), "and the session era sees the same task");
        probe.awaitTask(id, t -> t.get("status").asText().equals("running"));
        assertEquals(
                "running",
                awaitMcpTask(tasks, id, "working").get("statusMessage").asText());

        ack(tasks.answer("tasks/cancel", Map.of("taskId", id)));
        assertEquals("cancelled", probe.task(id).get("status").asText(), "persisted before the ack");
        JsonNode cancelled = tasks.answer("tasks/get", Map.of("taskId", id)).get("result");
        assertEquals("cancelled", cancelled.get("status").asText());
        assertFalse(cancelled.has("result") || cancelled.has("error"), cancelled.toString());
        ack(tasks.answer("tasks/cancel", Map.of("taskId", id)));
        probe.awaitLeaseReleased(1);
    }

    @Test
    void an_interrupted_agent_task_is_a_failed_mcp_task_with_its_code() throws Exception {
        McpTestClient tasks = tasksClient();
        String id = handle(tasks.callResult("submit_agent_task", submit("proj", "fake", "question:nobody answers")));
        JsonNode failed = awaitMcpTask(tasks, id, "failed");
        assertEquals(-32603, failed.at("/error/code").asInt(), failed.toString());
        assertEquals(
                "AGENT_INTERACTION_TIMED_OUT", failed.at("/error/data/code").asText());
        assertEquals("interrupted", failed.get("statusMessage").asText());
        assertFalse(failed.has("result"), failed.toString());
        probe.awaitLeaseReleased(1);
    }

    @Test
    void without_the_extension_submit_answers_as_before_and_the_tasks_methods_are_refused_with_32021()
            throws Exception {
        McpTestClient plain = McpTestClient.stateless(mcp.url());
        assertTrue(
                plain.answer("server/discover", Map.of())
                        .at("/result/capabilities/extensions")
                        .has("io.modelcontextprotocol/tasks"),
                "announced with the Agent tools");
        JsonNode result = plain.callResult("submit_agent_task", submit("proj", "fake", "complete:plain"));
        assertEquals("complete", result.get("resultType").asText());
        String id = result.at("/structuredContent/task_id").asText();
        assertEquals("queued", result.at("/structuredContent/status").asText(), result.toString());
        probe.awaitTask(id, t -> t.get("status").asText().equals("succeeded"));
        JsonNode refused = plain.answer("tasks/get", Map.of("taskId", id));
        assertEquals(-32021, refused.at("/error/code").asInt(), refused.toString());
        assertTrue(refused.at("/error/data/requiredCapabilities/extensions").has("io.modelcontextprotocol/tasks"));
        JsonNode unknown = tasksClient().answer("tasks/get", Map.of("taskId", "agt_" + "0".repeat(24)));
        assertEquals(-32602, unknown.at("/error/code").asInt(), unknown.toString());
        JsonNode completed =
                tasksClient().answer("tasks/get", Map.of("taskId", id)).get("result");
        assertEquals("plain", completed.at("/result/content/0/text").asText(), "a plain submit is a task all the same");
        probe.awaitLeaseReleased(1);
    }

    static String created(ToolCall call) {
        JsonNode out = call.ok();
        return out.get("task_id").asText();
    }

    static Map<String, Object> submit(String workdir, String runtime, String prompt) {
        return submit(workdir, runtime, prompt, "workspace-write");
    }

    static Map<String, Object> submit(String workdir, String runtime, String prompt, String profile) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runtime", runtime);
        m.put("workdir", workdir);
        m.put("prompt", prompt);
        m.put("profile", profile);
        return m;
    }

    static Map<String, Object> with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(base);
        m.put(key, value);
        return m;
    }
}
