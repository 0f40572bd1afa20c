package dev.serverfs.adapters.codex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.serverfs.adapters.codex.CodexWire.Message;
import dev.serverfs.application.port.out.RunContext;
import dev.serverfs.application.port.out.TurnOutcome;
import dev.serverfs.application.port.out.TurnRequest;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.json.JsonValue;
import dev.serverfs.domain.task.ApprovalDecision;
import dev.serverfs.domain.task.ApprovalRequest;
import dev.serverfs.domain.task.ApprovalResolution;
import dev.serverfs.domain.task.NativeIds;
import dev.serverfs.domain.task.QuestionAnswer;
import dev.serverfs.domain.task.QuestionRequest;
import dev.serverfs.domain.task.TaskProfile;
import dev.serverfs.provider.InteractionGate;
import dev.serverfs.provider.ProviderChild;
import dev.serverfs.provider.ProviderJson;
import dev.serverfs.provider.ProviderTurns;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * One Codex turn on its {@code app-server} child: the JSON-RPC connection (our requests with their timeout, Codex's
 * notifications and requests, read by one reader thread), what the turn learnt so far, and its pending interaction.
 * Native thread and turn ids go to {@link RunContext#nativeIds} only; no event carries them.
 */
final class CodexTurn implements ProviderTurns.Turn {
    private static final Pattern URL = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]*://\\S+");

    private final ProviderChild child;
    private final RunContext context;
    private final TurnRequest request;
    private final Duration requestTimeout;
    private final Map<String, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final CompletableFuture<JsonNode> completed = new CompletableFuture<>();
    private final AtomicBoolean interruptSent = new AtomicBoolean();
    /** One interaction at a time; {@code serverRequest/resolved} withdraws one. */
    private final InteractionGate gate = new InteractionGate();
    /**
     * The {@code changes} of each {@code fileChange} item, by thread and item id, for its approval (which names
     * none). Item ids are the model's call ids: two threads may use the same one.
     */
    private final Map<String, JsonNode> fileChanges = new ConcurrentHashMap<>();
    /** The sub-agents Codex tied to the turn: their commands and file changes are the task's too. */
    private final CodexThreads threads = new CodexThreads();

    private volatile boolean cancelRequested;
    private volatile String threadId;
    private volatile String turnId;
    private volatile String lastMessage = "";
    private volatile String lastFinalAnswer;
    private volatile boolean turnStartedSeen;

    CodexTurn(ProviderChild child, RunContext context, TurnRequest request, Duration requestTimeout) {
        this.child = child;
        this.context = context;
        this.request = request;
        this.requestTimeout = requestTimeout;
    }

    @Override
    public ProviderChild child() {
        return child;
    }

    /**
     * The directory Codex is told about (thread and turn {@code cwd}, its sandbox's writable root). The child process
     * itself starts in the held directory ({@code /proc/<pid>/fd/<n>}, so a swapped symlink cannot move it), but that
     * name means nothing inside Codex's sandbox: Codex gets the held directory's own path, read from the descriptor.
     */
    private Path protocolCwd() {
        try {
            return request.workingDirectory().toRealPath();
        } catch (IOException e) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the task's working directory is gone");
        }
    }

    /** Handshake, thread, turn, then waits for {@code turn/completed}; runs on the task's turn thread. */
    TurnOutcome run() {
        Thread.ofPlatform().daemon().name("codex-rpc-" + child.pid()).start(this::read);
        request("initialize", CodexWire.initializeParams("0.7.3"));
        send(CodexWire.notification("initialized"));
        Optional<String> resume = request.resumeFrom().flatMap(NativeIds::sessionId);
        Path cwd = protocolCwd();
        ObjectNode threadParams = CodexCommandLine.threadParams(cwd, request.profile(), resume);
        JsonNode thread;
        try {
            thread = request(resume.isPresent() ? "thread/resume" : "thread/start", threadParams);
        } catch (ServerFsException e) {
            if (resume.isPresent() && e.code() == ErrorCode.AGENT_PROVIDER_ERROR) {
                throw new ServerFsException(ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "Codex could not resume the thread");
            }
            throw e;
        }
        String id = thread.path("thread").path("id").asText("");
        if (id.isEmpty()) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "Codex started no thread");
        }
        if (resume.isPresent() && !resume.get().equals(id)) {
            throw new ServerFsException(ErrorCode.AGENT_SESSION_NOT_RESUMABLE, "Codex resumed a different thread");
        }
        threadId = id;
        context.nativeIds(new NativeIds(Optional.of(id), Optional.empty()));
        JsonNode turn =
                request("turn/start", CodexCommandLine.turnParams(id, request.prompt(), cwd, request.profile()));
        String tid = turn.path("turn").path("id").asText("");
        if (tid.isEmpty()) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "Codex started no turn");
        }
        turnId = tid;
        context.nativeIds(new NativeIds(Optional.of(id), Optional.of(tid)));
        if (cancelRequested) {
            sendInterrupt();
        }
        return outcome(awaitCompletion());
    }

    /** Waits for the turn to end; an interrupt of the turn thread interrupts the turn and waits a little more. */
    private JsonNode awaitCompletion() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return interrupted
                            ? completed.get(CodexAgentRuntime.CANCEL_GRACE.toNanos(), TimeUnit.NANOSECONDS)
                            : completed.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                    interrupt();
                } catch (TimeoutException e) {
                    throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Codex turn was stopped");
                } catch (ExecutionException e) {
                    throw failure(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private TurnOutcome outcome(JsonNode turn) {
        String status = turn.path("status").asText("");
        NativeIds ids = new NativeIds(Optional.of(threadId), Optional.of(turnId));
        if (status.equals("completed") && !cancelRequested) {
            return new TurnOutcome(lastFinalAnswer != null ? lastFinalAnswer : lastMessage, ids);
        }
        if (status.equals("interrupted") || cancelRequested) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Codex turn was interrupted");
        }
        JsonNode info = turn.path("error").path("codexErrorInfo");
        String kind =
                info.isObject() && info.size() > 0 ? info.fieldNames().next() : info.isTextual() ? info.asText() : "";
        throw new ServerFsException(
                ErrorCode.AGENT_PROVIDER_ERROR,
                "Codex ended the turn with status " + cut(status) + (kind.isEmpty() ? "" : " (" + cut(kind) + ")"));
    }

    /** Steers the running turn (reference §7.1 {@code turn/steer} with {@code expectedTurnId}). */
    void steer(String message) {
        String tid = turnId;
        if (tid == null || completed.isDone()) {
            throw new ServerFsException(ErrorCode.AGENT_TASK_NOT_ACTIVE, "the Codex turn is not running");
        }
        ObjectNode params = CodexWire.object().put("threadId", threadId);
        params.set("input", CodexWire.textInput(message));
        params.put("expectedTurnId", tid);
        request("turn/steer", params);
    }

    /** Asks Codex to stop the running turn; once, as soon as the turn id is known. */
    @Override
    public void interrupt() {
        cancelRequested = true;
        if (turnId != null) {
            sendInterrupt();
        }
    }

    private void sendInterrupt() {
        if (!completed.isDone() && interruptSent.compareAndSet(false, true)) {
            // Reference §7.1: provider errors of the interrupt are swallowed; nobody waits on its answer.
            String id = nextId();
            pending.put(id, new CompletableFuture<>());
            child.send(CodexWire.request(
                    id,
                    "turn/interrupt",
                    CodexWire.object().put("threadId", threadId).put("turnId", turnId)));
        }
    }

    /** Ends the child: an unfinished turn is interrupted first. True when its exit was observed. */
    @Override
    public boolean finish() {
        if (!completed.isDone() && child.isAlive()) {
            interrupt();
        }
        return child.stop(CodexAgentRuntime.STOP);
    }

    // ------------------------------------------------------------------------------------------ JSON-RPC

    private String nextId() {
        return Integer.toString(ids.incrementAndGet());
    }

    private void send(String line) {
        if (!child.send(line)) {
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the Codex process stopped");
        }
    }

    /** One request and its result within the request timeout. */
    private JsonNode request(String method, JsonNode params) {
        String id = nextId();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        try {
            send(CodexWire.request(id, method, params));
            return answer.get(requestTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new ServerFsException(
                    ErrorCode.AGENT_PROVIDER_DISCONNECTED, "Codex did not answer " + method + " in time");
        } catch (ExecutionException e) {
            throw failure(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancelRequested = true;
            throw new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Codex turn was stopped");
        } finally {
            pending.remove(id);
        }
    }

    private static ServerFsException failure(ExecutionException e) {
        return e.getCause() instanceof ServerFsException s
                ? s
                : new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "the Codex connection failed");
    }

    /** The reader: every line Codex writes, until its output ends; then everything still waiting fails. */
    private void read() {
        ServerFsException end = new ServerFsException(
                ErrorCode.AGENT_PROVIDER_DISCONNECTED, "the Codex process ended before the turn did");
        try {
            while (true) {
                Optional<String> line = child.take();
                if (line.isEmpty()) {
                    break;
                }
                dispatch(CodexWire.parse(line.get()));
            }
        } catch (ServerFsException e) {
            end = e; // a line over the bound: the turn fails rather than buffering
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            end = new ServerFsException(ErrorCode.AGENT_PROVIDER_ERROR, "a Codex message could not be handled");
        } finally {
            completed.completeExceptionally(end);
            for (CompletableFuture<JsonNode> waiting : pending.values()) {
                waiting.completeExceptionally(end);
            }
            if (end.code() == ErrorCode.AGENT_PROVIDER_ERROR) {
                child.stop(CodexAgentRuntime.STOP);
            }
        }
    }

    private void dispatch(Message message) {
        switch (message) {
            case Message.Response r -> {
                CompletableFuture<JsonNode> waiting = pending.remove(r.id());
                if (waiting != null) {
                    if (r.failed()) {
                        waiting.completeExceptionally(new ServerFsException(
                                ErrorCode.AGENT_PROVIDER_ERROR, "Codex answered a request with an error"));
                    } else {
                        waiting.complete(r.result() == null ? CodexWire.object() : r.result());
                    }
                }
            }
            case Message.ServerRequest r -> serverRequest(r);
            case Message.Notification n -> notification(n.method(), n.params());
            case Message.Garbage g -> {
                // not JSON-RPC: nothing to act on
            }
        }
    }

    private void notification(String method, JsonNode params) {
        if (method.equals("serverRequest/resolved")) {
            // request ids are the connection's: whichever thread asked, its pending interaction is withdrawn
            withdraw(params.path("requestId").asText(""));
            return;
        }
        threads.learn(method, params, threadId, turnId);
        int origin = threads.origin(params, threadId, turnId);
        if (origin == CodexThreads.NONE) {
            return;
        }
        switch (method) {
            case "turn/started" -> {
                if (origin == CodexThreads.MAIN && !turnStartedSeen) {
                    turnStartedSeen = true;
                    context.event("turn.started", JsonValue.object().build());
                }
            }
            case "item/started" -> item("item.started", params, origin);
            case "item/completed" -> item("item.completed", params, origin);
            case "error" -> {
                JsonNode error = params.path("error");
                String text = error.isTextual()
                        ? error.asText()
                        : error.path("message").asText("");
                var event = JsonValue.object()
                        .put("message", text.isEmpty() ? "the model API call failed" : cut(text))
                        .put("will_retry", params.path("willRetry").asBoolean(false));
                context.event("provider.error", marked(event, origin).build());
            }
            case "turn/completed" -> {
                JsonNode turn = params.path("turn");
                if (origin == CodexThreads.MAIN
                        && (turnId == null || turn.path("id").asText("").equals(turnId))) {
                    completed.complete(turn);
                }
            }
            default -> {
                // status, token usage, deltas, warnings: no evidence a task shows
            }
        }
    }

    /**
     * Reference §3.13 {@code item.started} / {@code item.completed}; an agent message of the task's own turn is {@code
     * agent.message}. A sub-agent's commands and file changes are marked {@code subagent}; its messages are not shown
     * (the sub-agent answers the task's agent, and one could be taken for the task's answer).
     */
    private void item(String type, JsonNode params, int origin) {
        JsonNode item = params.path("item");
        String kind = item.path("type").asText("");
        switch (kind) {
            case "agentMessage" -> {
                if (!type.equals("item.completed") || origin != CodexThreads.MAIN) {
                    return;
                }
                String text = item.path("text").asText("");
                String phase = item.path("phase").asText("");
                lastMessage = text;
                if (phase.equals("final_answer")) {
                    lastFinalAnswer = text;
                }
                var event = JsonValue.object().put("text", text);
                if (!phase.isEmpty()) {
                    event.put("phase", phase);
                }
                context.event("agent.message", event.build());
            }
            case "commandExecution" -> {
                JsonNode command = item.path("command");
                var event = JsonValue.object()
                        .put("type", kind)
                        .put("command", ProviderJson.cut(command.isTextual() ? command.asText() : command.toString()))
                        .put("cwd", item.path("cwd").asText(""))
                        .put("status", item.path("status").asText(""));
                if (item.path("exitCode").isIntegralNumber()) {
                    event.put("exit_code", item.path("exitCode").asLong());
                }
                context.event(type, marked(event, origin).build());
            }
            case "fileChange" -> {
                JsonNode changes = item.path("changes");
                fileChanges.put(itemKey(params, item.path("id")), changes);
                var event = JsonValue.object()
                        .put("type", kind)
                        .put("changes", CodexInteractions.files(changes))
                        .put("status", item.path("status").asText(""));
                context.event(type, marked(event, origin).build());
            }
            default -> {
                // user messages, reasoning, web searches, sub-agent tool calls: not shown
            }
        }
    }

    /** A sub-agent's event names it: {@code subagent} n, the n-th sub-agent Codex tied to the turn. */
    private static JsonValue.ObjectBuilder marked(JsonValue.ObjectBuilder event, int origin) {
        return origin == CodexThreads.MAIN ? event : event.put("subagent", origin);
    }

    private static String itemKey(JsonNode params, JsonNode itemId) {
        return params.path("threadId").asText("") + "\n" + itemId.asText("");
    }

    // ------------------------------------------------------------------------------------------ interactions

    private void serverRequest(Message.ServerRequest r) {
        if (!CodexInteractions.handles(r.method())) {
            child.send(CodexWire.error(r.id(), CodexWire.METHOD_NOT_FOUND, "unsupported request"));
            return;
        }
        int origin = threads.origin(r.params(), threadId, turnId);
        Thread.ofVirtual().name("codex-interaction").start(() -> decide(r, origin));
    }

    /**
     * Runs on its own thread: waits for the human, then answers unless Codex withdrew the request. {@code origin}:
     * whose request it is ({@link CodexThreads#origin}, learnt by the reader).
     */
    private void decide(Message.ServerRequest r, int origin) {
        // Timed out, stale, the task ended (the lifecycle stops the turn), a secret question: refused.
        gate.decide(
                        r.id().asText(),
                        () -> CodexWire.result(r.id(), answer(r, origin)),
                        e -> CodexWire.error(r.id(), CodexWire.HANDLER_FAILED, "the request was not answered"))
                .ifPresent(child::send);
    }

    private JsonNode answer(Message.ServerRequest r, int origin) {
        JsonNode params = r.params();
        if (r.method().equals(CodexInteractions.USER_INPUT)) {
            QuestionRequest questions = CodexInteractions.questions(params)
                    .orElseThrow(() -> new ServerFsException(
                            ErrorCode.PERMISSION_OUTSIDE_POLICY, "secret or malformed questions are refused"));
            java.util.List<QuestionAnswer> answers = context.askQuestion(questions);
            return CodexInteractions.answers(params, answers);
        }
        boolean permissions = r.method().equals(CodexInteractions.PERMISSIONS_APPROVAL);
        if (request.profile() == TaskProfile.REVIEW) {
            // A review task never asks a human to let Codex change something: declined at once.
            ApprovalResolution deny = new ApprovalResolution(ApprovalDecision.DENY, Optional.empty());
            return permissions ? CodexInteractions.permissions(params, deny) : CodexInteractions.decision(deny);
        }
        ApprovalRequest approval = switch (r.method()) {
            case CodexInteractions.COMMAND_APPROVAL -> CodexInteractions.commandApproval(params);
            case CodexInteractions.FILE_CHANGE_APPROVAL ->
                CodexInteractions.fileChangeApproval(
                        params, Optional.ofNullable(fileChanges.get(itemKey(params, params.path("itemId")))));
            default -> CodexInteractions.permissionsApproval(params);
        };
        ApprovalResolution resolution = context.requestApproval(
                origin > CodexThreads.MAIN ? CodexInteractions.ofSubagent(approval, origin) : approval);
        if (resolution.decision() == ApprovalDecision.CANCEL_TASK) {
            cancelRequested = true; // Codex ends the turn interrupted; the lifecycle cancels the task
            if (permissions) {
                Thread.ofVirtual().start(this::interrupt); // a permissions reply cannot say "cancel"
            }
        }
        return permissions ? CodexInteractions.permissions(params, resolution) : CodexInteractions.decision(resolution);
    }

    private void withdraw(String requestId) {
        if (gate.withdraw(requestId)) {
            context.abandonPendingRequest();
        }
    }

    /** Provider text for an event or an error: cut, URLs (endpoints, hosts) left out. */
    private static String cut(String text) {
        return ProviderJson.cut(URL.matcher(text).replaceAll("<url>"));
    }
}
