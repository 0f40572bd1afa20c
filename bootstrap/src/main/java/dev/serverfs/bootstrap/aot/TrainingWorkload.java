package dev.serverfs.bootstrap.aot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The scripted calls of a training run, over Streamable HTTP like a real client: every file tool on the fixture's
 * {@code docs} and {@code scratch} workdirs (reads, lists, stat, find, search, creates, edits, deletes, binary
 * upload and download, refused calls), and the Agent tools with the fake runtime (a completed task, an approval, a
 * question, a cancellation). A call that answers differently from the script fails the run.
 */
final class TrainingWorkload {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> ENDED = Set.of("succeeded", "failed", "cancelled", "interrupted", "timed_out");
    private static final Duration TASK_WAIT = Duration.ofSeconds(60);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final URI url;
    private long ids;
    private String session;
    private int calls;

    TrainingWorkload(String url) {
        this.url = URI.create(url);
    }

    /** Runs {@code rounds} rounds of file calls (fewer if {@code budget} runs out), then the Agent script; the calls made. */
    int run(int rounds, Duration budget) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + budget.toNanos();
        initialize();
        rpc("ping", JSON.createObjectNode());
        rpc("tools/list", JSON.createObjectNode());
        ok("list_workdirs", Map.of());
        for (int round = 0; round < rounds && System.nanoTime() < deadline; round++) {
            fileRound(round);
        }
        agentScript(); // last: a task's writer lease on scratch outlives its end by a moment
        return calls;
    }

    private void fileRound(int round) throws IOException, InterruptedException {
        String big = TrainingFixture.BIG;
        ok("read_text_file", Map.of("workdir", "docs", "path", big, "max_lines", 16_384));
        ok("read_text_file", Map.of("workdir", "docs", "path", big, "start_line", 1 + round % 1000, "max_lines", 1024));
        ok("list_directory", Map.of("workdir", "docs", "path", TrainingFixture.DIR1000, "limit", 1000));
        ok("list_directory", Map.of("workdir", "docs", "path", TrainingFixture.TREE + "/pkg" + round % 20));
        ok("stat_file", Map.of("workdir", "docs", "path", big));
        ok("stat_file", Map.of("workdir", "docs", "path", TrainingFixture.DIR1000));
        ok("search_text", Map.of("workdir", "docs", "query", "needle-" + String.format("%02d", round % 50)));
        ok(
                "search_text",
                Map.of(
                        "workdir",
                        "docs",
                        "query",
                        "COMPUTE(" + round % TrainingFixture.TREE_FILES,
                        "path",
                        "tree",
                        "glob",
                        "**/*.java",
                        "case_sensitive",
                        false,
                        "limit",
                        20));
        ok("find_files", Map.of("workdir", "docs", "pattern", "**/*.md", "path", TrainingFixture.TREE, "limit", 50));
        ok("find_files", Map.of("workdir", "docs", "pattern", "file-0" + round % 10 + "*.txt"));
        refused("read_text_file", Map.of("workdir", "docs", "path", "missing-" + round + ".txt"));
        refused("read_text_file", Map.of("workdir", "docs", "path", "../outside.txt"));
        refused("create_text_file", Map.of("workdir", "docs", "path", "nope.txt", "content", "x"));

        String path = "notes/round-" + round + ".txt";
        if (round == 0) {
            ok("create_directory", Map.of("workdir", "scratch", "path", "notes"));
        }
        JsonNode created = ok(
                "create_text_file",
                Map.of(
                        "workdir",
                        "scratch",
                        "path",
                        path,
                        "content",
                        "first line of round " + round + "\nsecond line\n"));
        JsonNode edited = ok(
                "edit_text_file",
                Map.of(
                        "workdir",
                        "scratch",
                        "path",
                        path,
                        "expected_revision",
                        created.get("revision").asText(),
                        "edits",
                        List.of(Map.of("old_text", "second", "new_text", "edited"))));
        ok("read_text_file", Map.of("workdir", "scratch", "path", path));
        refused(
                "edit_text_file",
                Map.of(
                        "workdir",
                        "scratch",
                        "path",
                        path,
                        "expected_revision",
                        created.get("revision").asText(),
                        "edits",
                        List.of(Map.of("old_text", "first", "new_text", "x"))));
        ok(
                "delete_file",
                Map.of(
                        "workdir",
                        "scratch",
                        "path",
                        path,
                        "expected_revision",
                        edited.get("revision").asText()));
        if (round % 10 == 0) {
            String bin = "notes/blob-" + round + ".bin";
            byte[] bytes = new byte[4096 + round];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) (i * 31 + round);
            }
            JsonNode uploaded = ok(
                    "upload_binary_file",
                    Map.of(
                            "workdir",
                            "scratch",
                            "path",
                            bin,
                            "data_base64",
                            Base64.getEncoder().encodeToString(bytes)));
            ok("download_binary_file", Map.of("workdir", "scratch", "path", bin));
            ok(
                    "delete_file",
                    Map.of(
                            "workdir",
                            "scratch",
                            "path",
                            bin,
                            "expected_revision",
                            uploaded.get("revision").asText()));
            String dir = "notes/dir-" + round;
            ok("create_directory", Map.of("workdir", "scratch", "path", dir));
            JsonNode stat = ok("stat_file", Map.of("workdir", "scratch", "path", dir));
            ok(
                    "delete_directory",
                    Map.of(
                            "workdir",
                            "scratch",
                            "path",
                            dir,
                            "expected_revision",
                            stat.get("revision").asText()));
        }
    }

    private void agentScript() throws IOException, InterruptedException {
        ok("list_agent_runtimes", Map.of());
        for (int i = 0; i < 3; i++) {
            String task = submit("complete:training task " + i);
            JsonNode done = awaitTask(task, ENDED);
            if (!done.get("status").asText().equals("succeeded")) {
                throw new IOException(
                        "a fake training task ended " + done.get("status").asText() + " ("
                                + done.path("error_code").asText() + ")");
            }
            ok("read_agent_task_events", Map.of("task_id", task));
            refused("read_agent_task_result", Map.of("task_id", task)); // a short result is inline
        }
        String approval = submit("approval:make test");
        JsonNode waiting = awaitTask(approval, Set.of("waiting_for_approval"));
        ok(
                "respond_agent_approval",
                Map.of(
                        "task_id",
                        approval,
                        "request_id",
                        waiting.get("pending_request").get("request_id").asText(),
                        "decision",
                        "approve_once"));
        awaitTask(approval, ENDED);
        String question = submit("question:which one?");
        JsonNode asked = awaitTask(question, Set.of("waiting_for_question"));
        JsonNode pending = asked.get("pending_request");
        ok("cancel_agent_task", Map.of("task_id", question));
        awaitTask(question, ENDED);
        refused(
                "answer_agent_question",
                Map.of(
                        "task_id",
                        question,
                        "request_id",
                        pending.get("request_id").asText(),
                        "answers",
                        List.of(Map.of("text", "late"))));
        String steer = submit("steer:");
        awaitTask(steer, Set.of("running"));
        // Running comes a moment before the provider's turn accepts a message.
        callRetrying("send_agent_message", Map.of("task_id", steer, "message", "finish now"), "AGENT_TASK_NOT_ACTIVE");
        awaitTask(steer, ENDED);
        refused("get_agent_task", Map.of("task_id", "agt_000000000000000000000000"));
    }

    private String submit(String prompt) throws IOException, InterruptedException {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("runtime", "fake");
        args.put("workdir", "scratch");
        args.put("prompt", prompt);
        args.put("profile", "workspace-write");
        // The previous task's writer lease is released a moment after it reports its end.
        JsonNode result = callRetrying("submit_agent_task", args, "WORKDIR_BUSY");
        return result.get("structuredContent").get("task_id").asText();
    }

    /** Calls {@code tool} until it succeeds, again every 20 ms while it is refused with {@code passingCode}. */
    private JsonNode callRetrying(String tool, Map<String, ?> arguments, String passingCode)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TASK_WAIT.toNanos();
        while (true) {
            JsonNode result = call(tool, arguments);
            if (!result.path("isError").asBoolean(false)) {
                return result;
            }
            if (!errorCode(result).equals(passingCode) || System.nanoTime() > deadline) {
                throw new IOException(tool + " failed in training: " + errorCode(result));
            }
            Thread.sleep(20);
        }
    }

    /** Polls {@code get_agent_task} (itself a trained path) until the task reaches one of {@code statuses}. */
    private JsonNode awaitTask(String task, Set<String> statuses) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TASK_WAIT.toNanos();
        while (true) {
            JsonNode state = ok("get_agent_task", Map.of("task_id", task));
            String status = state.get("status").asText();
            if (statuses.contains(status)) {
                return state;
            }
            if (ENDED.contains(status) || System.nanoTime() > deadline) {
                throw new IOException("a fake training task is " + status + ", not " + statuses);
            }
            Thread.sleep(20);
        }
    }

    private JsonNode ok(String tool, Map<String, ?> arguments) throws IOException, InterruptedException {
        JsonNode result = call(tool, arguments);
        if (result.path("isError").asBoolean(false)) {
            throw new IOException(tool + " failed in training: " + errorCode(result));
        }
        return result.get("structuredContent");
    }

    private void refused(String tool, Map<String, ?> arguments) throws IOException, InterruptedException {
        JsonNode result = call(tool, arguments);
        if (!result.path("isError").asBoolean(false)) {
            throw new IOException(tool + " was expected to be refused in training");
        }
    }

    private static String errorCode(JsonNode result) {
        String text = result.path("content").path(0).path("text").asText();
        int colon = text.indexOf(':');
        return colon > 0 ? text.substring(0, colon) : "(no code)";
    }

    private JsonNode call(String tool, Map<String, ?> arguments) throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode();
        params.put("name", tool);
        params.set("arguments", JSON.valueToTree(arguments));
        return rpc("tools/call", params);
    }

    private void initialize() throws IOException, InterruptedException {
        ObjectNode params = JSON.createObjectNode();
        params.put("protocolVersion", "2025-11-25");
        params.putObject("capabilities");
        params.putObject("clientInfo").put("name", "serverfs-aot-train").put("version", "1");
        HttpResponse<String> response = post(request("initialize", params));
        session = response.headers()
                .firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new IOException("initialize gave no Mcp-Session-Id"));
        ObjectNode initialized = JSON.createObjectNode();
        initialized.put("jsonrpc", "2.0");
        initialized.put("method", "notifications/initialized");
        post(initialized);
    }

    private JsonNode rpc(String method, ObjectNode params) throws IOException, InterruptedException {
        HttpResponse<String> response = post(request(method, params));
        JsonNode body = JSON.readTree(response.body());
        if (response.statusCode() != 200 || !body.has("result")) {
            throw new IOException(method + " answered HTTP " + response.statusCode() + " without a result");
        }
        calls++;
        return body.get("result");
    }

    private ObjectNode request(String method, ObjectNode params) {
        ObjectNode request = JSON.createObjectNode();
        request.put("jsonrpc", "2.0");
        request.put("id", ++ids);
        request.put("method", method);
        request.set("params", params);
        return request;
    }

    private HttpResponse<String> post(ObjectNode body) throws IOException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(url)
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body), StandardCharsets.UTF_8));
        if (session != null) {
            builder.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        }
        return http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
