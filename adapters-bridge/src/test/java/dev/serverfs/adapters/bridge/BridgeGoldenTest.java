package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase.ResultRead;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.Submission;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.application.port.in.TaskHandle;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.Task;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.task.TaskStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Golden lines of every method both ways: the client encodes each call, the dispatcher over the real services
 * answers, and both lines must equal {@code golden/<step>.jsonl}; the records the client rebuilds must re-encode to
 * exactly what the in-process use cases return. Regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class BridgeGoldenTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden");

    private final AgentFixture agent = new AgentFixture();
    private final BridgeDispatcher dispatcher = new BridgeDispatcher(agent.useCases);
    private final List<String> lines = new ArrayList<>();
    private final AtomicLong ids = new AtomicLong();
    private final BridgeClient client = new BridgeClient(
            request -> {
                byte[] response = dispatcher.respond(Arrays.copyOf(request, request.length - 1));
                lines.add(new String(request, StandardCharsets.UTF_8));
                lines.add(new String(response, StandardCharsets.UTF_8));
                return Arrays.copyOf(response, response.length - 1);
            },
            () -> String.format("mcp_%024x", ids.incrementAndGet()));

    @AfterEach
    void close() {
        agent.close();
    }

    @Test
    void every_method_matches_its_golden_lines_and_round_trips() throws Exception {
        agent.interactiveTurn();

        assertEquals(agent.useCases.listRuntimes().listRuntimes(), client.listRuntimes());
        golden("runtime.list");

        Submission submission = client.submit(SubmitAgentTaskCommand.parse(
                "fake",
                "docs",
                "fix the build",
                "src",
                "workspace-write",
                Optional.empty(),
                Optional.of("conv-1"),
                Optional.of("key-1")));
        TaskHandle submitted = submission.handle();
        assertEquals(TaskStatus.QUEUED, submitted.status());
        assertEquals(Optional.of(new CorrelationId("conv-1")), submitted.correlationId());
        assertEquals(Optional.of(new IdempotencyKey("key-1")), submitted.idempotencyKey());
        assertEquals("src", submitted.relativeCwd());
        assertEquals(TaskProfile.WORKSPACE_WRITE, submitted.profile());
        TaskId id = submitted.taskId();
        // One call: the starting directory and profile are what the client sent. The goldens were recorded when a
        // task.get followed (request mcp_3); that id is skipped so every later golden line stays byte-identical.
        assertEquals(2, lines.size());
        ids.incrementAndGet();
        golden("task.submit");

        agent.awaitRequested(id, "approval.requested");
        TaskView waiting = client.get(id);
        assertSameView(agent.useCases.get().get(id), waiting);
        RequestId approval = waiting.pendingRequest().orElseThrow().id();
        golden("task.get.waiting_for_approval");

        assertEquals(agent.useCases.events().readEvents(id, 0, 100), client.readEvents(id, 0, 100));
        golden("task.events");

        InteractionAck approved = client.respond(
                id, approval, new ApprovalResolution(ApprovalDecision.APPROVE_ONCE, Optional.of(List.of())));
        assertEquals(new InteractionAck(id, approval, Optional.of(new CorrelationId("conv-1"))), approved);
        golden("task.approval.respond");

        Task asking = agent.awaitRequested(id, "question.requested");
        RequestId question = asking.pendingRequestId().orElseThrow();
        client.answer(id, question, List.of(new QuestionAnswer("q1", List.of("b"), Optional.empty())));
        golden("task.question.answer");

        agent.await(id, t -> t.status() == TaskStatus.RUNNING);
        assertEquals(id, client.send(id, "also run the linter").taskId());
        assertEquals(List.of("also run the linter"), agent.fake.steers);
        golden("task.message.send");

        agent.await(id, t -> t.status() == TaskStatus.SUCCEEDED);
        assertTrue(agent.awaitDrained(id));
        assertSameView(agent.useCases.get().get(id), client.get(id));
        golden("task.get.succeeded");

        ResultRead first = client.readResult(id, 0, 11);
        assertEquals(agent.useCases.result().readResult(id, 0, 11), first);
        assertEquals("é".repeat(5), first.chunk().text(), "trimmed back to a UTF-8 boundary");
        golden("task.result.read");

        assertEquals(agent.useCases.cancel().cancel(id), client.cancel(id));
        golden("task.cancel");

        TaskId unknown = new TaskId("agt_" + "f".repeat(24));
        ServerFsException notFound = assertThrows(ServerFsException.class, () -> client.get(unknown));
        assertEquals(ErrorCode.AGENT_TASK_NOT_FOUND, notFound.code());
        assertEquals("unknown task", notFound.getMessage());
        golden("task.get.unknown");
    }

    @Test
    void runtime_models_is_validated_and_answers_unsupported() throws Exception {
        byte[] response = dispatcher.respond(
                "{\"protocol_version\":1,\"request_id\":\"mcp_1\",\"method\":\"runtime.models\",\"params\":{\"runtime\":\"codex\",\"profile\":\"review\"}}"
                        .getBytes(StandardCharsets.UTF_8));
        lines.add(new String(response, StandardCharsets.UTF_8));
        golden("runtime.models");
        String refused = new String(
                dispatcher.respond(
                        "{\"protocol_version\":1,\"request_id\":\"mcp_2\",\"method\":\"runtime.models\",\"params\":{}}"
                                .getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);
        assertEquals(
                "{\"request_id\":\"mcp_2\",\"ok\":false,\"error\":{\"code\":\"INVALID_REQUEST\",\"message\":\"missing param runtime for runtime.models\"}}\n",
                refused);
    }

    /** The parsed view is the Bridge's view and re-encodes to exactly its line: nothing is lost or altered. */
    private static void assertSameView(TaskView direct, TaskView parsed) {
        assertEquals(
                AgentWire.taskView(direct).toString(),
                AgentWire.taskView(parsed).toString());
        assertEquals(direct, parsed);
    }

    private void golden(String step) throws IOException {
        String actual = String.join("", lines);
        lines.clear();
        Path file = GOLDEN.resolve(step + ".jsonl");
        if (Boolean.getBoolean("golden.update")) {
            Files.createDirectories(GOLDEN);
            Files.writeString(file, actual);
        }
        assertEquals(Files.readString(file), actual, step);
    }
}
