package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase.SubmitAgentTaskCommand;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.AgentAccessPolicy;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.TaskId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One decoded request → one response line (reference §4.2, §4.3): reads the params strictly ({@code
 * INVALID_REQUEST}), calls the in-port, writes its result; a {@code ServerFsException} becomes the error envelope
 * with its code, any other failure {@code BRIDGE_PROTOCOL_ERROR} with a generic message (details only in the log).
 */
final class BridgeDispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(BridgeDispatcher.class);
    private static final Set<String> ANSWER_KEYS = Set.of("question_id", "selected_option_ids", "text");
    private static final int DEFAULT_EVENT_LIMIT = ReadAgentTaskEventsUseCase.DEFAULT_LIMIT;
    private static final int DEFAULT_RESULT_BYTES = ReadAgentTaskResultUseCase.DEFAULT_MAX_BYTES;

    private final AgentUseCases agent;

    BridgeDispatcher(AgentUseCases agent) {
        this.agent = Objects.requireNonNull(agent, "agent");
    }

    /** The response line for one request line (without its terminator). */
    byte[] respond(byte[] line) {
        BridgeRequest request;
        try {
            request = BridgeCodec.decodeRequest(line);
        } catch (ProtocolRefusal refusal) {
            return BridgeCodec.error(refusal.requestId().orElse(null), refusal.code(), refusal.getMessage());
        }
        try {
            return BridgeCodec.success(request.requestId(), dispatch(request));
        } catch (ServerFsException e) {
            return BridgeCodec.error(request.requestId(), e.code(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.atError()
                    .setMessage("bridge_request_failed")
                    .addKeyValue("method", request.method().wire())
                    .setCause(e)
                    .log();
            return BridgeCodec.error(request.requestId(), ErrorCode.BRIDGE_PROTOCOL_ERROR, "internal Bridge error");
        }
    }

    private ObjectNode dispatch(BridgeRequest request) {
        WireFields p = WireFields.params(request.params());
        return switch (request.method()) {
            case RUNTIME_LIST -> AgentWire.runtimes(agent.listRuntimes().listRuntimes());
            case TASK_SUBMIT -> AgentWire.handle(submit(p).handle());
            case TASK_GET -> AgentWire.taskView(agent.get().get(taskId(p)));
            case TASK_EVENTS ->
                AgentWire.events(agent.events()
                        .readEvents(
                                taskId(p),
                                p.optionalInteger("after_event_id").orElse(0L),
                                saturated(p.optionalInteger("limit"), DEFAULT_EVENT_LIMIT)));
            case TASK_RESULT_READ ->
                AgentWire.result(agent.result()
                        .readResult(
                                taskId(p),
                                p.optionalInteger("offset_bytes").orElse(0L),
                                saturated(p.optionalInteger("max_bytes"), DEFAULT_RESULT_BYTES)));
            case TASK_APPROVAL_RESPOND ->
                AgentWire.ack(agent.approval()
                        .respond(
                                taskId(p),
                                RequestId.parse(p.string("request_id")),
                                new ApprovalResolution(
                                        ApprovalDecision.parse(p.string("decision")),
                                        p.optionalStrings("granted_permission_ids"))));
            case TASK_QUESTION_ANSWER ->
                AgentWire.ack(agent.answer().answer(taskId(p), RequestId.parse(p.string("request_id")), answers(p)));
            case TASK_MESSAGE_SEND -> AgentWire.messageAck(agent.message().send(taskId(p), p.string("message")));
            case TASK_CANCEL -> AgentWire.cancel(agent.cancel().cancel(taskId(p)));
            case RUNTIME_MODELS -> models(p);
        };
    }

    /**
     * {@code task.submit}: the service checks the starting directory through the workdir's path policy and answers
     * the MCP codes; the Bridge RPC names them as reference §4.3 does — a NUL, escaping the workdir or not a directory
     * {@code INVALID_WORKDIR_PATH}, missing {@code WORKDIR_PATH_NOT_FOUND}.
     */
    private SubmitAgentTaskUseCase.Submission submit(WireFields p) {
        SubmitAgentTaskCommand command = SubmitAgentTaskCommand.parse(
                p.string("runtime"),
                p.string("workdir"),
                p.string("prompt"),
                p.string("path"),
                p.string("profile"),
                p.optionalString("continue_from_task_id"),
                p.optionalString("correlation_id"),
                p.optionalString("idempotency_key"));
        try {
            return agent.submit().submit(command);
        } catch (ServerFsException e) {
            ErrorCode wire = switch (e.code()) {
                case PATH_OUTSIDE_WORKDIR, NOT_A_DIRECTORY, SYMLINK_NOT_ALLOWED -> ErrorCode.INVALID_WORKDIR_PATH;
                case PATH_NOT_FOUND -> ErrorCode.WORKDIR_PATH_NOT_FOUND;
                // the path policy's ACCESS_DENIED for a NUL (reference §2.0) is the Bridge's normalisation failure
                case ACCESS_DENIED ->
                    p.string("path").indexOf('\0') >= 0 ? ErrorCode.INVALID_WORKDIR_PATH : ErrorCode.ACCESS_DENIED;
                default -> e.code();
            };
            if (wire == e.code()) {
                throw e;
            }
            throw new ServerFsException(wire, e.getMessage());
        }
    }

    private static TaskId taskId(WireFields p) {
        return TaskId.parse(p.string("task_id"));
    }

    /** An integer beyond {@code int} is out of every range the use cases check, so it keeps failing there. */
    private static int saturated(Optional<Long> value, int fallback) {
        return value.map(v -> (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v)))
                .orElse(fallback);
    }

    /** Answer shapes fail {@code INVALID_QUESTION_ANSWER}, as on the MCP side (reference §3.7). */
    private static List<QuestionAnswer> answers(WireFields p) {
        List<JsonNode> answers;
        try {
            answers = p.objects("answers");
        } catch (ServerFsException e) {
            throw new ServerFsException(ErrorCode.INVALID_QUESTION_ANSWER, "answers is a list of objects");
        }
        return answers.stream()
                .map(node -> {
                    node.fieldNames().forEachRemaining(name -> {
                        if (!ANSWER_KEYS.contains(name)) {
                            throw invalidAnswer();
                        }
                    });
                    try {
                        WireFields a = WireFields.params(node);
                        return new QuestionAnswer(
                                a.string("question_id"),
                                a.optionalStrings("selected_option_ids").orElse(List.of()),
                                a.optionalString("text"));
                    } catch (ServerFsException e) {
                        throw invalidAnswer();
                    }
                })
                .toList();
    }

    private static ServerFsException invalidAnswer() {
        return new ServerFsException(
                ErrorCode.INVALID_QUESTION_ANSWER,
                "an answer has question_id (string), selected_option_ids (list of strings) and text (string or null)");
    }

    /**
     * {@code runtime.models} [v0.9]: model discovery and model override are out of scope (CONTRACT.md §3.6), so the
     * answer says so for every runtime after checking the params' types.
     */
    private static ObjectNode models(WireFields p) {
        String runtime = p.string("runtime");
        p.optionalString("workdir");
        p.optionalString("task_prompt");
        p.optionalString("path");
        p.optionalString("profile")
                .ifPresent(profile -> AgentAccessPolicy.profile(profile).get());
        ObjectNode out = BridgeCodec.object();
        out.put("runtime", runtime);
        out.put("status", "unsupported");
        out.put("scope", "none");
        out.put("source", "none");
        out.putArray("models");
        out.put("detail", "model discovery is not supported by this Bridge");
        return out;
    }
}
