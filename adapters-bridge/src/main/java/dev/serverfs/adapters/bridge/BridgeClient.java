package dev.serverfs.adapters.bridge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.application.port.in.AnswerAgentQuestionUseCase;
import dev.serverfs.application.port.in.CancelAgentTaskUseCase;
import dev.serverfs.application.port.in.GetAgentTaskUseCase;
import dev.serverfs.application.port.in.InteractionAck;
import dev.serverfs.application.port.in.ListAgentRuntimesUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskEventsUseCase;
import dev.serverfs.application.port.in.ReadAgentTaskResultUseCase;
import dev.serverfs.application.port.in.RespondAgentApprovalUseCase;
import dev.serverfs.application.port.in.SendAgentMessageUseCase;
import dev.serverfs.application.port.in.SubmitAgentTaskUseCase;
import dev.serverfs.application.port.in.TaskView;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.CorrelationId;
import dev.serverfs.domain.task.IdempotencyKey;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.RequestId;
import dev.serverfs.domain.task.RuntimeInfo;
import dev.serverfs.domain.task.RuntimeName;
import dev.serverfs.domain.task.TaskId;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.domain.workdir.PathPolicy;
import dev.serverfs.domain.workdir.WorkdirPath;
import java.io.EOFException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;
import java.util.function.Supplier;

/**
 * The nine Agent use cases of {@code serve} when the Agent runs in a Bridge process (reference §1.3, §3, §4.1): one
 * AF_UNIX connection per call, bounded by the timeout ({@code SERVERFS_AGENT_BRIDGE_TIMEOUT_SECONDS}); the response's
 * key set and {@code request_id} echo are verified. A Bridge error comes back with its own code and message;
 * unreachable, closed without an answer or timed out → {@code AGENT_BRIDGE_UNAVAILABLE}; a malformed or oversized
 * answer, or an oversized request → {@code AGENT_BRIDGE_PROTOCOL_ERROR}; anything else → {@code AGENT_BRIDGE_ERROR}.
 *
 * <p>{@code task.submit} answers the handle without the starting directory and profile the MCP audit records: both
 * are what the client sent (the normalised path and the profile are part of a replayed task's fingerprint, so a
 * replay has them too), so one call is enough. Every submission is reported {@code Created}, since the wire does not
 * say whether the Bridge replayed it.
 */
public final class BridgeClient
        implements ListAgentRuntimesUseCase,
                SubmitAgentTaskUseCase,
                GetAgentTaskUseCase,
                ReadAgentTaskEventsUseCase,
                ReadAgentTaskResultUseCase,
                RespondAgentApprovalUseCase,
                AnswerAgentQuestionUseCase,
                SendAgentMessageUseCase,
                CancelAgentTaskUseCase {

    /** Sends one request line (with its terminator) and returns the response line (without it). */
    @FunctionalInterface
    interface Exchange {
        byte[] exchange(byte[] requestLine);
    }

    private final Exchange exchange;
    private final Supplier<String> requestIds;
    private final LongConsumer hops;

    /** A client of the Bridge listening on {@code socket}; every call is bounded by {@code timeout}. */
    public BridgeClient(Path socket, Duration timeout) {
        this(socket, timeout, nanos -> {});
    }

    /** As {@link #BridgeClient(Path, Duration)}, telling {@code hops} each answered call's round trip in nanoseconds. */
    public BridgeClient(Path socket, Duration timeout, LongConsumer hops) {
        this(socketExchange(socket, timeout), randomRequestIds(), hops);
    }

    BridgeClient(Exchange exchange, Supplier<String> requestIds) {
        this(exchange, requestIds, nanos -> {});
    }

    private BridgeClient(Exchange exchange, Supplier<String> requestIds, LongConsumer hops) {
        this.exchange = Objects.requireNonNull(exchange, "exchange");
        this.requestIds = Objects.requireNonNull(requestIds, "requestIds");
        this.hops = Objects.requireNonNull(hops, "hops");
    }

    /** {@code mcp_<24 hex>} (reference §4.1). */
    private static Supplier<String> randomRequestIds() {
        SecureRandom random = new SecureRandom();
        HexFormat hex = HexFormat.of();
        return () -> {
            byte[] bytes = new byte[12];
            random.nextBytes(bytes);
            return "mcp_" + hex.formatHex(bytes);
        };
    }

    @Override
    public List<RuntimeInfo> listRuntimes() {
        return AgentWire.runtimes(call(BridgeMethod.RUNTIME_LIST, BridgeCodec.object()));
    }

    @Override
    public Submission submit(SubmitAgentTaskCommand c) {
        // A field refused on this side goes as the caller wrote it: the Bridge refuses it at its place in the order.
        ObjectNode p = BridgeCodec.object();
        p.put("runtime", c.runtime().fold(RuntimeName::wire, raw -> raw));
        p.put("workdir", c.workdir());
        p.put("path", c.path());
        p.put("profile", c.profile().fold(TaskProfile::wire, raw -> raw));
        p.put("prompt", c.prompt());
        c.continueFromTaskId().ifPresent(id -> p.put("continue_from_task_id", id.value()));
        c.correlationId().fold(id -> CorrelationId.wire(id), Optional::of).ifPresent(id -> p.put("correlation_id", id));
        c.idempotencyKey()
                .fold(key -> IdempotencyKey.wire(key), Optional::of)
                .ifPresent(key -> p.put("idempotency_key", key));
        ObjectNode answer = call(BridgeMethod.TASK_SUBMIT, p);
        // Answered, so the Bridge accepted the profile and the path: the task starts in the path's normal form.
        String relativeCwd =
                PathPolicy.normalised(c.path()).map(WorkdirPath::display).orElse(c.path());
        return new Submission.Created(
                AgentWire.handle(answer, relativeCwd, c.profile().get()));
    }

    @Override
    public TaskView get(TaskId taskId) {
        return AgentWire.taskView(call(BridgeMethod.TASK_GET, task(taskId)));
    }

    @Override
    public EventPage readEvents(TaskId taskId, long afterEventId, int limit) {
        ObjectNode p = task(taskId);
        p.put("after_event_id", afterEventId);
        p.put("limit", limit);
        return AgentWire.events(call(BridgeMethod.TASK_EVENTS, p));
    }

    @Override
    public ResultRead readResult(TaskId taskId, long offsetBytes, int maxBytes) {
        ObjectNode p = task(taskId);
        p.put("offset_bytes", offsetBytes);
        p.put("max_bytes", maxBytes);
        return AgentWire.result(call(BridgeMethod.TASK_RESULT_READ, p));
    }

    @Override
    public InteractionAck respond(TaskId taskId, RequestId requestId, ApprovalResolution resolution) {
        ObjectNode p = task(taskId);
        p.put("request_id", requestId.value());
        p.put("decision", resolution.decision().wire());
        resolution.grantedPermissionIds().ifPresent(ids -> {
            ArrayNode list = p.putArray("granted_permission_ids");
            ids.forEach(list::add);
        });
        return AgentWire.ack(call(BridgeMethod.TASK_APPROVAL_RESPOND, p));
    }

    @Override
    public InteractionAck answer(TaskId taskId, RequestId requestId, List<QuestionAnswer> answers) {
        ObjectNode p = task(taskId);
        p.put("request_id", requestId.value());
        ArrayNode list = p.putArray("answers");
        for (QuestionAnswer a : answers) {
            ObjectNode answer = list.addObject();
            answer.put("question_id", a.questionId());
            ArrayNode selected = answer.putArray("selected_option_ids");
            a.selectedOptionIds().forEach(selected::add);
            answer.put("text", a.text().orElse(null));
        }
        return AgentWire.ack(call(BridgeMethod.TASK_QUESTION_ANSWER, p));
    }

    @Override
    public MessageAck send(TaskId taskId, String message) {
        ObjectNode p = task(taskId);
        p.put("message", message);
        return AgentWire.messageAck(call(BridgeMethod.TASK_MESSAGE_SEND, p));
    }

    @Override
    public CancelOutcome cancel(TaskId taskId) {
        return AgentWire.cancel(call(BridgeMethod.TASK_CANCEL, task(taskId)));
    }

    private static ObjectNode task(TaskId taskId) {
        ObjectNode p = BridgeCodec.object();
        p.put("task_id", taskId.value());
        return p;
    }

    private ObjectNode call(BridgeMethod method, ObjectNode params) {
        String requestId = requestIds.get();
        byte[] request = BridgeCodec.request(requestId, method, params);
        long started = System.nanoTime();
        byte[] answer = exchange.exchange(request);
        hops.accept(System.nanoTime() - started);
        return BridgeCodec.decodeResponse(answer, requestId);
    }

    /** One request on a fresh AF_UNIX connection; the whole exchange is bounded by the timeout. */
    static Exchange socketExchange(Path socketPath, Duration timeout) {
        UnixDomainSocketAddress socket = UnixDomainSocketAddress.of(Objects.requireNonNull(socketPath, "socketPath"));
        Objects.requireNonNull(timeout, "timeout");
        return request -> {
            SocketChannel channel;
            try {
                channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            } catch (IOException e) {
                throw new ServerFsException(ErrorCode.AGENT_BRIDGE_ERROR, "the Bridge connection could not be opened");
            }
            var deadline = Watchdog.closeAfter(channel, timeout);
            try (channel) {
                try {
                    channel.connect(socket);
                } catch (IOException e) {
                    throw unavailable();
                }
                try {
                    LineReader.writeFully(channel, request);
                } catch (IOException e) {
                    // The Bridge may have answered and closed before reading (PEER_NOT_AUTHORIZED): read that answer.
                }
                return new LineReader(channel, BridgeCodec.MAX_LINE_BYTES)
                        .next()
                        .orElseThrow(BridgeClient::unavailable);
            } catch (LineReader.LineTooLong | EOFException e) {
                throw new ServerFsException(
                        ErrorCode.AGENT_BRIDGE_PROTOCOL_ERROR, "invalid Bridge response: truncated or too large");
            } catch (IOException e) {
                throw unavailable();
            } finally {
                deadline.cancel(false);
            }
        };
    }

    private static ServerFsException unavailable() {
        return new ServerFsException(ErrorCode.AGENT_BRIDGE_UNAVAILABLE, "Agent Bridge is unavailable");
    }
}
