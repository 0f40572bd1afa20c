package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.adapters.mcp.tools.BinaryTools;
import dev.serverfs.adapters.mcp.tools.FilesystemMutationTools;
import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.adapters.mcp.tools.agent.AgentTools;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.CreateDirectoryUseCase;
import dev.serverfs.application.port.in.CreateTextFileUseCase;
import dev.serverfs.application.port.in.DeleteDirectoryUseCase;
import dev.serverfs.application.port.in.DeleteFileUseCase;
import dev.serverfs.application.port.in.DownloadBinaryFileUseCase;
import dev.serverfs.application.port.in.EditTextFileUseCase;
import dev.serverfs.application.port.in.FindFilesUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ListDirectoryUseCase;
import dev.serverfs.application.port.in.ListWorkdirsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.ReadTextFileUseCase;
import dev.serverfs.application.port.in.SearchTextUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.StatFileUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.application.port.in.UploadBinaryFileUseCase;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.InFlightRecovery;
import dev.serverfs.domain.task.InteractionKind;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.PendingRequest;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.ResultChunk;
import dev.serverfs.domain.task.ResultStorage;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.StoredManifest;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskEvent;
import dev.serverfs.domain.task.TaskFailure;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskResult;
import dev.serverfs.domain.task.TaskStatus;
import dev.serverfs.domain.workdir.WorkdirAlias;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every tool's exact wire output against one golden file: the {@code tools/list} descriptors (all four variants of
 * ingress and the test-only runtime), and for a set of calls per tool the {@code CallToolResult} bytes, the use-case
 * input the call produced and the audit event (without its duration). Written once from the tool layer before it was
 * re-cut (issue 11 §2), so the re-cut is proven byte-identical; run with {@code -Dserverfs.golden.write=true} to
 * rewrite the file after an intended change.
 */
class ToolWireGoldenTest {

    private static final String GOLDEN = "/dev/serverfs/adapters/mcp/golden/tool-wire.txt";
    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final TaskId TASK = new TaskId("agt_0123456789abcdef01234567");
    private static final RequestId REQUEST = new RequestId("req_0123456789abcdef01234567");
    private static final String SHA = "a".repeat(64);

    private final List<String> inputs = new ArrayList<>();
    private final Fixtures.RecordingAuditLog audit = new Fixtures.RecordingAuditLog();

    /** The tools under test, every surface; the only part of this test that follows the tool layer's shape. */
    private List<McpTool> tools(boolean ingress, boolean offerFake) {
        List<McpTool> tools = new ArrayList<>();
        tools.addAll(new FilesystemReadTools(
                        listWorkdirs(), listDirectory(), findFiles(), searchText(), readTextFile(), statFile())
                .definitions());
        tools.addAll(new FilesystemMutationTools(
                        createTextFile(), editTextFile(), deleteFile(), createDirectory(), deleteDirectory())
                .definitions());
        tools.addAll(new BinaryTools(download(), upload(), ingress).definitions());
        tools.addAll(new AgentTools(agent(), Fixtures.runtimes(offerFake)).definitions());
        return tools;
    }

    /** Tool name, then arguments; several calls per tool: all arguments, none optional, edge values, failures. */
    private static final List<List<String>> CALLS = List.of(
            List.of("list_workdirs", "{}"),
            List.of("list_workdirs", "{\"unknown\":1}"),
            List.of("list_directory", "{\"workdir\":\"docs\"}"),
            List.of("list_directory", "{\"workdir\":\"docs\",\"path\":\"d\",\"offset\":2.0,\"limit\":5}"),
            List.of("list_directory", "{\"workdir\":\"docs\",\"offset\":99999999999999999999,\"limit\":1e30}"),
            List.of("list_directory", "{\"workdir\":\"docs\",\"limit\":0}"),
            List.of("list_directory", "{\"workdir\":\"docs\",\"path\":\"fail\"}"),
            List.of("find_files", "{\"workdir\":\"docs\",\"pattern\":\"*.py\"}"),
            List.of("find_files", "{\"workdir\":\"docs\",\"pattern\":\"*\",\"path\":\"b\",\"limit\":3000000000}"),
            List.of("search_text", "{\"workdir\":\"docs\",\"query\":\"x\"}"),
            List.of(
                    "search_text",
                    "{\"workdir\":\"docs\",\"query\":\"x\",\"path\":\"p\",\"glob\":\"*.md\",\"case_sensitive\":false,"
                            + "\"limit\":7}"),
            List.of("search_text", "{\"workdir\":\"docs\",\"query\":\"x\",\"glob\":null}"),
            List.of("search_text", "{\"workdir\":\"docs\",\"query\":1}"),
            List.of("read_text_file", "{\"workdir\":\"docs\",\"path\":\"f\"}"),
            List.of("read_text_file", "{\"workdir\":\"docs\",\"path\":\"f\",\"start_line\":3,\"max_lines\":4}"),
            List.of(
                    "read_text_file",
                    "{\"workdir\":\"docs\",\"path\":\"f\",\"start_line\":1e300,\"max_lines\":2147483648}"),
            List.of("read_text_file", "{\"workdir\":\"docs\",\"path\":\"fail\"}"),
            List.of("stat_file", "{\"workdir\":\"docs\",\"path\":\"\"}"),
            List.of("stat_file", "{\"workdir\":\"docs\",\"path\":\"f\"}"),
            List.of("create_text_file", "{\"workdir\":\"rw\",\"path\":\"n\",\"content\":\"h\\u00e9\\ud83d\\ude00\"}"),
            List.of("create_text_file", "{\"workdir\":\"rw\",\"path\":\"n\"}"),
            List.of(
                    "edit_text_file",
                    "{\"workdir\":\"rw\",\"path\":\"e\",\"expected_revision\":\"v1:aaaaaaaaaaaaaaaa\",\"edits\":["
                            + "{\"old_text\":\"a\",\"new_text\":\"b\"},"
                            + "{\"old_text\":\"c\",\"new_text\":\"d\",\"expected_count\":3}]}"),
            List.of(
                    "edit_text_file",
                    "{\"workdir\":\"rw\",\"path\":\"e\",\"expected_revision\":\"v1:aaaaaaaaaaaaaaaa\",\"edits\":["
                            + "{\"old_text\":\"a\",\"new_text\":\"b\",\"expected_count\":5000000000}],"
                            + "\"dry_run\":true}"),
            List.of(
                    "edit_text_file",
                    "{\"workdir\":\"rw\",\"path\":\"e\",\"expected_revision\":\"v1:aaaaaaaaaaaaaaaa\",\"edits\":["
                            + "{\"old_text\":\"a\",\"new_text\":\"b\",\"extra\":1}]}"),
            List.of("delete_file", "{\"workdir\":\"rw\",\"path\":\"x\",\"expected_revision\":\"v1:bbbbbbbbbbbbbbbb\"}"),
            List.of("create_directory", "{\"workdir\":\"rw\",\"path\":\"dir\"}"),
            List.of(
                    "delete_directory",
                    "{\"workdir\":\"rw\",\"path\":\"dir\",\"expected_revision\":\"v1:cccccccccccccccc\"}"),
            List.of("download_binary_file", "{\"workdir\":\"scratch\",\"path\":\"a b/ü~+.png\"}"),
            List.of("upload_binary_file", "{\"workdir\":\"scratch\",\"path\":\"u.bin\",\"data_base64\":\"AAEC\"}"),
            List.of(
                    "upload_binary_file",
                    "{\"workdir\":\"scratch\",\"path\":\"u.bin\",\"data_base64\":null,\"file\":{\"download_url\":"
                            + "\"https://files.invalid/x\",\"file_id\":\"file-1\",\"mime_type\":\"image/png\"},"
                            + "\"overwrite\":true,\"expected_revision\":\"v1:dddddddddddddddd\"}"),
            List.of(
                    "upload_binary_file",
                    "{\"workdir\":\"scratch\",\"path\":\"u.bin\",\"file\":{\"download_url\":\"u\",\"file_id\":\"f\","
                            + "\"mime_type\":null,\"file_name\":\"n.png\"},\"expected_revision\":null}"),
            List.of("upload_binary_file", "{\"workdir\":\"scratch\",\"path\":\"u.bin\",\"file\":{\"file_id\":\"f\"}}"),
            List.of("list_agent_runtimes", "{}"),
            List.of("submit_agent_task", "{\"runtime\":\"codex\",\"workdir\":\"scratch\",\"prompt\":\"do it\"}"),
            List.of(
                    "submit_agent_task",
                    "{\"runtime\":\"claude\",\"workdir\":\"scratch\",\"prompt\":\"p\",\"path\":\"sub\",\"profile\":"
                            + "\"review\",\"continue_from_task_id\":\"agt_111111111111111111111111\","
                            + "\"correlation_id\":\"corr-1\",\"idempotency_key\":\"key-1\"}"),
            List.of(
                    "submit_agent_task",
                    "{\"runtime\":\"codex\",\"workdir\":\"scratch\",\"prompt\":\"p\",\"continue_from_task_id\":null,"
                            + "\"correlation_id\":null,\"idempotency_key\":null}"),
            List.of(
                    "submit_agent_task",
                    "{\"runtime\":\"codex\",\"workdir\":\"scratch\",\"prompt\":\"p\",\"continue_from_task_id\":\"bad\"}"),
            List.of("submit_agent_task", "{\"runtime\":\"fake\",\"workdir\":\"scratch\",\"prompt\":\"p\"}"),
            List.of("get_agent_task", "{\"task_id\":\"agt_0123456789abcdef01234567\"}"),
            List.of("get_agent_task", "{\"task_id\":\"agt_222222222222222222222222\"}"),
            List.of("get_agent_task", "{\"task_id\":\"agt_333333333333333333333333\"}"),
            List.of("get_agent_task", "{\"task_id\":\"agt_444444444444444444444444\",\"extra\":[1]}"),
            List.of("get_agent_task", "{\"task_id\":\"nope\"}"),
            List.of("read_agent_task_events", "{\"task_id\":\"agt_0123456789abcdef01234567\"}"),
            List.of(
                    "read_agent_task_events",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"after_event_id\":4,\"limit\":500}"),
            List.of("read_agent_task_events", "{\"task_id\":\"agt_0123456789abcdef01234567\",\"limit\":501}"),
            List.of("read_agent_task_events", "{\"task_id\":\"agt_0123456789abcdef01234567\",\"after_event_id\":-1}"),
            List.of("read_agent_task_events", "{\"task_id\":\"x\",\"limit\":501}"),
            List.of("read_agent_task_result", "{\"task_id\":\"agt_0123456789abcdef01234567\"}"),
            List.of(
                    "read_agent_task_result",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"offset_bytes\":10,\"max_bytes\":20}"),
            List.of("read_agent_task_result", "{\"task_id\":\"agt_0123456789abcdef01234567\",\"offset_bytes\":-1}"),
            List.of("read_agent_task_result", "{\"task_id\":\"agt_0123456789abcdef01234567\",\"max_bytes\":65537}"),
            List.of(
                    "read_agent_task_result",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"max_bytes\":99999999999999999999}"),
            List.of(
                    "respond_agent_approval",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"decision\":\"approve_once\"}"),
            List.of(
                    "respond_agent_approval",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"decision\":\"approve_session\",\"granted_permission_ids\":[\"p1\",\"p2\"]}"),
            List.of(
                    "respond_agent_approval",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"decision\":\"deny\",\"granted_permission_ids\":null}"),
            List.of(
                    "respond_agent_approval",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"bad\",\"decision\":\"deny\"}"),
            List.of(
                    "answer_agent_question",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"answers\":[{\"question_id\":\"q1\",\"selected_option_ids\":[\"o1\"]},"
                            + "{\"question_id\":\"q2\",\"selected_option_ids\":null,\"text\":\"free\"},"
                            + "{\"question_id\":\"q3\",\"text\":null}]}"),
            List.of(
                    "answer_agent_question",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"answers\":[{\"question_id\":\"q1\",\"other\":1}]}"),
            List.of(
                    "answer_agent_question",
                    "{\"task_id\":\"agt_0123456789abcdef01234567\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"answers\":[{\"text\":\"t\"}]}"),
            List.of(
                    "answer_agent_question",
                    "{\"task_id\":\"bad\",\"request_id\":\"req_0123456789abcdef01234567\","
                            + "\"answers\":[{\"other\":1}]}"),
            List.of("send_agent_message", "{\"task_id\":\"agt_0123456789abcdef01234567\",\"message\":\"h\\u00e9llo\"}"),
            List.of("cancel_agent_task", "{\"task_id\":\"agt_0123456789abcdef01234567\"}"),
            List.of("cancel_agent_task", "{\"task_id\":\"agt_222222222222222222222222\"}"));

    @Test
    void every_tool_writes_exactly_the_golden_bytes() throws IOException {
        StringBuilder out = new StringBuilder();
        for (boolean ingress : new boolean[] {false, true}) {
            for (boolean fake : new boolean[] {false, true}) {
                ToolRegistry registry = new ToolRegistry(tools(ingress, fake), EnumSet.allOf(ToolSurface.class));
                out.append("=== tools/list ingress=")
                        .append(ingress)
                        .append(" fake=")
                        .append(fake)
                        .append('\n')
                        .append(new String(Json.writeBytes(registry.descriptors()), StandardCharsets.UTF_8))
                        .append('\n');
            }
        }
        ToolInvoker invoker =
                new ToolInvoker(new ToolRegistry(tools(true, true), EnumSet.allOf(ToolSurface.class)), audit);
        for (List<String> call : CALLS) {
            inputs.clear();
            int events = audit.events().size();
            ToolInvoker.Outcome outcome = invoker.call(call.get(0), Json.WIRE.readTree(call.get(1)));
            out.append("=== ")
                    .append(call.get(0))
                    .append(' ')
                    .append(call.get(1))
                    .append('\n');
            out.append(
                    switch (outcome) {
                        case ToolInvoker.Outcome.Result r ->
                            new String(Json.writeBytes(r.wire()), StandardCharsets.UTF_8);
                        case ToolInvoker.Outcome.Failure f -> "failure " + f.code() + " " + f.message();
                        case ToolInvoker.Outcome.InputNeeded n -> "input needed " + n.needed();
                    });
            out.append('\n');
            inputs.forEach(i -> out.append("input ").append(i).append('\n'));
            audit.events().subList(events, audit.events().size()).forEach(e -> out.append(describe(e)));
        }
        String actual = out.toString();
        if (Boolean.getBoolean("serverfs.golden.write")) {
            Path file = Path.of("src/test/resources" + GOLDEN);
            Files.createDirectories(file.getParent());
            Files.writeString(file, actual);
            return;
        }
        assertEquals(golden(), actual);
    }

    private static String describe(AuditLog.ToolCall e) {
        String counters = e.counters().entrySet().stream()
                .map(c -> c.getKey() + "=" + c.getValue() + " ("
                        + c.getValue().getClass().getSimpleName() + ")")
                .collect(Collectors.joining(", "));
        return "audit " + e.tool() + " success=" + e.success() + " workdir=" + e.workdir() + " path=" + e.path()
                + " code=" + e.errorCode() + " counters={" + counters + "}\n";
    }

    private static String golden() throws IOException {
        try (InputStream in = ToolWireGoldenTest.class.getResourceAsStream(GOLDEN)) {
            return in == null ? "(no golden file)" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    // ---- scripted use cases: each records its input and answers with fixed data ----

    private ListWorkdirsUseCase listWorkdirs() {
        return () -> List.of(
                new ListWorkdirsUseCase.WorkdirInfo("docs", "Docs", "read-only", false, "disabled", List.of()),
                new ListWorkdirsUseCase.WorkdirInfo(
                        "scratch", null, "read-write", true, "workspace-write", List.of("claude", "codex")));
    }

    private ListDirectoryUseCase listDirectory() {
        return q -> {
            inputs.add(q.toString());
            if ("fail".equals(q.path())) {
                throw new ServerFsException(ErrorCode.PATH_NOT_FOUND, "docs:fail — path not found");
            }
            return new ListDirectoryUseCase.DirectoryPage(
                    q.workdir(),
                    q.path(),
                    List.of(
                            new ListDirectoryUseCase.Entry("a.txt", "d/a.txt", "file", 3L, "2024-01-02T03:04:05Z"),
                            new ListDirectoryUseCase.Entry("s\"ub", "d/s\"ub", "directory", null, "2024-01-02Z")),
                    0,
                    100,
                    2,
                    true);
        };
    }

    private FindFilesUseCase findFiles() {
        return q -> {
            inputs.add(q.toString());
            return new FindFilesUseCase.FoundFiles(List.of("a.py", "b/c.py"), 2, true);
        };
    }

    private SearchTextUseCase searchText() {
        return q -> {
            inputs.add(q.toString());
            return new SearchTextUseCase.TextMatches(
                    List.of(
                            new SearchTextUseCase.Match("a.py", 7, "x = 1", false),
                            new SearchTextUseCase.Match("b.py", 9, "…x…", true)),
                    2,
                    false);
        };
    }

    private ReadTextFileUseCase readTextFile() {
        return q -> {
            inputs.add(q.toString());
            if ("fail".equals(q.path())) {
                throw new ServerFsException(ErrorCode.BINARY_FILE, "docs:fail — not a text file");
            }
            return new ReadTextFileUseCase.TextFileContent(
                    "docs", q.path(), 1, 2, "one\ntwo\t\"é\"\n", 8, q.startLine() == null, 3L, "v1:0123456789abcdef");
        };
    }

    private StatFileUseCase statFile() {
        return q -> {
            inputs.add(q.toString());
            return q.path().isEmpty()
                    ? new StatFileUseCase.FileStatus("docs", "", "directory", null, "2024Z", null, "v1:a")
                    : new StatFileUseCase.FileStatus("docs", q.path(), "file", 12L, "2024Z", "text/plain", "v1:b");
        };
    }

    private CreateTextFileUseCase createTextFile() {
        return c -> {
            inputs.add(c.toString());
            return new CreateTextFileUseCase.CreatedTextFile("rw", c.path(), true, 5, "v1:1111111111111111");
        };
    }

    private EditTextFileUseCase editTextFile() {
        return c -> {
            inputs.add(c.toString());
            return new EditTextFileUseCase.EditedTextFile(
                    "rw",
                    c.path(),
                    !c.dryRun(),
                    c.edits().size(),
                    10,
                    12,
                    "v1:aaaaaaaaaaaaaaaa",
                    "v1:bbbbbbbbbbbbbbbb",
                    "@@ -1 +1 @@\n-a\n+b\n",
                    c.dryRun());
        };
    }

    private DeleteFileUseCase deleteFile() {
        return c -> {
            inputs.add(c.toString());
            return new DeleteFileUseCase.DeletedFile(
                    "rw", c.path(), true, 7, c.expectedRevision().token());
        };
    }

    private CreateDirectoryUseCase createDirectory() {
        return c -> {
            inputs.add(c.toString());
            return new CreateDirectoryUseCase.CreatedDirectory("rw", c.path(), true, "v1:cccccccccccccccc");
        };
    }

    private DeleteDirectoryUseCase deleteDirectory() {
        return c -> {
            inputs.add(c.toString());
            return new DeleteDirectoryUseCase.DeletedDirectory(
                    "rw", c.path(), true, c.expectedRevision().token());
        };
    }

    private DownloadBinaryFileUseCase download() {
        return q -> {
            inputs.add(q.toString());
            return new DownloadBinaryFileUseCase.DownloadedBinaryFile(
                    q.workdir(), q.path(), 3, "image/png", "cd", "v1:0123456789abcdef", new byte[] {1, 2, (byte) 255});
        };
    }

    private UploadBinaryFileUseCase upload() {
        return c -> {
            inputs.add("upload " + c.workdir() + " " + c.path() + " data=" + c.dataBase64() + " file="
                    + c.file().map(f -> f.downloadUrl() + "|" + f.fileId() + "|" + f.mimeType() + "|" + f.fileName())
                    + " overwrite=" + c.overwrite() + " expected=" + c.expectedRevision());
            return new UploadBinaryFileUseCase.UploadedBinaryFile(
                    c.workdir(),
                    c.path(),
                    !c.overwrite(),
                    c.overwrite(),
                    3,
                    "ab",
                    c.overwrite() ? Optional.of("v1:dddddddddddddddd") : Optional.empty(),
                    "v1:0123456789abcdef",
                    "application/octet-stream");
        };
    }

    private Task task(TaskId id, TaskStatus status) {
        boolean done = status.isTerminal();
        boolean succeeded = status == TaskStatus.SUCCEEDED;
        return new Task(
                id,
                RuntimeName.fromWire("codex").orElseThrow(),
                new WorkdirAlias("scratch"),
                3,
                "sub",
                TaskProfile.WORKSPACE_WRITE,
                status,
                T0,
                status == TaskStatus.QUEUED ? Optional.empty() : Optional.of(T0.plusSeconds(1)),
                T0.plusSeconds(2),
                done ? Optional.of(T0.plusSeconds(3)) : Optional.empty(),
                T0.plusSeconds(3600),
                Optional.of(new TaskId("agt_111111111111111111111111")),
                Optional.of(new CorrelationId("corr-1")),
                Optional.of(new IdempotencyKey("key-1")),
                Optional.of("fingerprint"),
                NativeIds.NONE,
                succeeded
                        ? Optional.of(new TaskResult("the answer \"é\"", ResultStorage.SPOOL, 42, SHA))
                        : Optional.empty(),
                new StoredManifest("{\"b\": 1, \"a\": [true, null, 1.50]}", SHA),
                status == TaskStatus.FAILED
                        ? Optional.of(new TaskFailure(ErrorCode.AGENT_PROVIDER_ERROR, "provider exited 1"))
                        : Optional.empty(),
                status.isWaiting() ? Optional.of(REQUEST) : Optional.empty(),
                0);
    }

    private AgentUseCases agent() {
        return new AgentUseCases(
                () -> List.of(
                        new RuntimeInfo(
                                "codex", true, Optional.of("1.2.3"), true, false, true, false, InFlightRecovery.NATIVE),
                        new RuntimeInfo(
                                "claude",
                                true,
                                Optional.empty(),
                                false,
                                true,
                                false,
                                true,
                                InFlightRecovery.SESSION_RESUME),
                        RuntimeInfo.unavailable("gone")),
                (SubmitAgentTaskUseCase) c -> {
                    // the caller's text as the command holds it, parsed or refused
                    inputs.add("submit " + c.runtime().fold(RuntimeName::wire, raw -> raw) + " " + c.workdir() + " "
                            + c.prompt() + " " + c.path() + " " + c.profile().fold(TaskProfile::wire, raw -> raw) + " "
                            + c.continueFromTaskId() + " "
                            + c.correlationId().fold(CorrelationId::wire, Optional::of) + " "
                            + c.idempotencyKey().fold(IdempotencyKey::wire, Optional::of));
                    Task t = task(TASK, TaskStatus.QUEUED);
                    return c.idempotencyKey().fold(Optional::isPresent, raw -> true)
                            ? new SubmitAgentTaskUseCase.Submission.Replayed(TaskHandle.of(t))
                            : new SubmitAgentTaskUseCase.Submission.Created(TaskHandle.of(new Task(
                                    t.id(),
                                    t.runtime(),
                                    t.workdirAlias(),
                                    t.workdirSlot(),
                                    "",
                                    t.profile(),
                                    t.status(),
                                    t.createdAt(),
                                    t.startedAt(),
                                    t.updatedAt(),
                                    t.completedAt(),
                                    t.deadlineAt(),
                                    Optional.empty(),
                                    Optional.empty(),
                                    Optional.empty(),
                                    Optional.empty(),
                                    t.nativeIds(),
                                    t.result(),
                                    t.manifest(),
                                    t.failure(),
                                    t.pendingRequestId(),
                                    0)));
                },
                (GetAgentTaskUseCase) id -> {
                    inputs.add("get " + id);
                    if (id.equals(TASK)) {
                        return TaskView.of(
                                task(id, TaskStatus.WAITING_FOR_APPROVAL),
                                Optional.of(PendingRequest.open(
                                        REQUEST,
                                        id,
                                        InteractionKind.APPROVAL,
                                        "{\"z\":1,\"perm\":[\"p1\"]}",
                                        T0,
                                        T0.plusSeconds(60))));
                    }
                    if (id.value().startsWith("agt_4")) {
                        return TaskView.of(task(id, TaskStatus.FAILED), Optional.empty());
                    }
                    if (id.value().startsWith("agt_2")) {
                        return TaskView.of(task(id, TaskStatus.SUCCEEDED), Optional.empty());
                    }
                    throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_FOUND, "no such task");
                },
                (ReadAgentTaskEventsUseCase) (id, after, limit) -> {
                    inputs.add("events " + id + " " + after + " " + limit);
                    return new ReadAgentTaskEventsUseCase.EventPage(
                            Optional.of(new CorrelationId("corr-1")),
                            List.of(
                                    new TaskEvent(5, id, "task.started", "{\"k\": \"v\"}", T0),
                                    new TaskEvent(6, id, "agent.message", "{}", T0.plusMillis(1))),
                            6);
                },
                (ReadAgentTaskResultUseCase) (id, offset, max) -> {
                    inputs.add("result " + id + " " + offset + " " + max);
                    return new ReadAgentTaskResultUseCase.ResultRead(
                            new ResultChunk("chunk é", offset, offset + 8, offset > 0), Optional.empty());
                },
                (taskId, requestId, resolution) -> {
                    inputs.add("approval " + taskId + " " + requestId + " " + resolution);
                    return new InteractionAck(taskId, requestId, Optional.of(new CorrelationId("corr-1")));
                },
                (taskId, requestId, answers) -> {
                    inputs.add("answer " + taskId + " " + requestId + " " + answers);
                    return new InteractionAck(taskId, requestId, Optional.empty());
                },
                (SendAgentMessageUseCase) (taskId, message) -> {
                    inputs.add("message " + taskId + " " + message);
                    return new SendAgentMessageUseCase.MessageAck(taskId, Optional.of(new CorrelationId("corr-1")));
                },
                (CancelAgentTaskUseCase) id -> {
                    inputs.add("cancel " + id);
                    return new CancelAgentTaskUseCase.CancelOutcome(
                            id, id.equals(TASK) ? TaskStatus.CANCELLED : TaskStatus.SUCCEEDED, Optional.empty());
                });
    }
}
