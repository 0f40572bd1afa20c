package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.io.IoCallback;
import io.undertow.io.Sender;
import io.undertow.server.Connectors;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;
import org.xnio.XnioExecutor;

/**
 * Streamable HTTP at {@code /mcp} (MCP 2025-11-25 basic/transports, and 2026-07-28 beside it: a request that
 * names 2026-07-28 in its {@code _meta} or {@code MCP-Protocol-Version} header is served statelessly, see
 * {@link StatelessGate}) and {@code GET /healthz}. On the I/O thread
 * only cheap header checks run, in this order: Host (421), Origin (403), bearer token (401), method (405 with
 * {@code Allow}). A POST body is then read on the I/O thread without blocking ({@link BodyReceiver}: 413 over the
 * size limit, from the headers alone when {@code Content-Length} says so, chunked bodies included; 503 when the
 * bodies in flight of all requests would pass the shared byte budget; a body too slow is cut), and only the complete
 * body goes on to a virtual thread, where Accept (406) and Content-Type (415) are checked, sessions (400 missing,
 * 404 unknown or ended) and {@code MCP-Protocol-Version} (400 unsupported) are validated, and the message is
 * dispatched. Responses are single JSON documents written with Undertow's non-blocking sender, the exchange then
 * ended on the connection's I/O thread (see {@code json}); a large answer is held against the answer budget until
 * its client takes it (503 when it does not fit, see {@code respond}); a request with a {@code progressToken} whose
 * tool reports progress is answered as an SSE stream instead ({@link ResponseStream}). A stateless read-tool call whose
 * client closes its connection is stopped and answered nothing ({@link Disconnects}). We offer no server-initiated
 * SSE stream, so GET is 405. Whatever escapes the dispatcher (a {@code StackOverflowError}, a failing audit log) is
 * answered {@code -32603 Internal error}, never an empty 500.
 */
final class McpHttpHandler implements HttpHandler {

    static final String MCP_PATH = "/mcp";
    static final String HEALTH_PATH = "/healthz";
    static final HttpString SESSION_HEADER = new HttpString("Mcp-Session-Id");
    static final HttpString VERSION_HEADER = new HttpString("MCP-Protocol-Version");
    /** Seconds a client is asked to wait before retrying a 503 (RFC 9110 §10.2.3). */
    static final String RETRY_AFTER_SECONDS = "1";

    /**
     * Answers up to this size go whole into a socket's send buffer (16 KiB is the smallest Linux gives a TCP
     * socket), so they are never held for a slow client and are not counted against the answer budget.
     */
    static final long UNBUDGETED_RESPONSE_BYTES = 16 * 1024;

    private static final Logger log = LoggerFactory.getLogger(McpHttpHandler.class);
    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String ALLOWED_METHODS = "POST, DELETE";
    /**
     * Ends an exchange on the connection's I/O thread once its answer is written. The bytes go out from the worker,
     * with no hand-off before them; only the completion moves. Ended by the worker, Undertow swaps the connection's
     * request state with a compare-and-set that the I/O thread spins on (a fifth of a list_directory load's CPU in
     * a profile) and re-arms the connection through the selector's wake-up; ended on the I/O thread, it re-arms the
     * connection in place (issue 15).
     */
    private static final IoCallback COMPLETE_ON_IO_THREAD = new IoCallback() {
        @Override
        public void onComplete(HttpServerExchange exchange, Sender sender) {
            if (exchange.isInIoThread()) {
                IoCallback.END_EXCHANGE.onComplete(exchange, sender);
            } else {
                // Still inside the worker's call: Undertow runs a dispatched task once the handler returns.
                exchange.dispatch(exchange.getIoThread(), () -> IoCallback.END_EXCHANGE.onComplete(exchange, sender));
            }
        }

        @Override
        public void onException(HttpServerExchange exchange, Sender sender, IOException exception) {
            IoCallback.END_EXCHANGE.onException(exchange, sender, exception);
        }
    };

    private final Supplier<RequestGate> gate;
    private final McpSessions sessions;
    private final McpDispatcher dispatcher;
    private final long maxBodyBytes;
    private final ByteBudget budget;
    private final ByteBudget responses;
    private final TransportLimits limits;
    private final Executor workers;
    private final TransportStats stats;
    private final Disconnects disconnects;

    McpHttpHandler(
            Supplier<RequestGate> gate,
            McpSessions sessions,
            McpDispatcher dispatcher,
            long maxBodyBytes,
            ByteBudget budget,
            ByteBudget responses,
            TransportLimits limits,
            Executor workers,
            TransportStats stats,
            Disconnects disconnects) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.maxBodyBytes = maxBodyBytes;
        this.budget = Objects.requireNonNull(budget, "budget");
        this.responses = Objects.requireNonNull(responses, "responses");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.stats = Objects.requireNonNull(stats, "stats");
        this.disconnects = Objects.requireNonNull(disconnects, "disconnects");
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        String path = exchange.getRequestPath();
        if (HEALTH_PATH.equals(path)) {
            health(exchange);
            return;
        }
        if (!MCP_PATH.equals(path)) {
            plain(exchange, 404, "Not Found");
            return;
        }
        HeaderMap headers = exchange.getRequestHeaders();
        RequestGate checks = gate.get();
        // Reference §1.4: Host and Origin are checked before any MCP dispatch.
        if (headers.count(Headers.HOST) != 1 || !checks.hostAllowed(headers.getFirst(Headers.HOST))) {
            plain(exchange, 421, "Invalid Host header");
            return;
        }
        if (headers.count(Headers.ORIGIN) > 1 || !checks.originAllowed(headers.getFirst(Headers.ORIGIN))) {
            plain(exchange, 403, "Invalid Origin header");
            return;
        }
        if (!checks.authorized(headers.getFirst(Headers.AUTHORIZATION))) {
            exchange.getResponseHeaders().put(Headers.WWW_AUTHENTICATE, "Bearer");
            plain(exchange, 401, "Unauthorized");
            return;
        }
        HttpString method = exchange.getRequestMethod();
        if (Methods.POST.equals(method)) {
            BodyReceiver.receive(exchange, budget, maxBodyBytes, limits, new BodyReceiver.Target() {
                @Override
                public void received(HttpServerExchange ex, BodyReceiver.Body body) {
                    dispatch(ex, body);
                }

                @Override
                public void refused(
                        HttpServerExchange ex, BodyReceiver.Refusal refusal, long readBytes, IoCallback then) {
                    refuse(ex, refusal, readBytes, then);
                }

                @Override
                public void timedOut() {
                    stats.refused(TransportStats.Refusal.BODY_TIMEOUT);
                }
            });
        } else if (Methods.DELETE.equals(method)) {
            // A map look-up and removal: cheap enough for the I/O thread, and DELETE carries no body to wait for.
            delete(exchange);
        } else {
            // No server-initiated SSE stream: GET (and anything else) is 405 with Allow (transports §GET).
            exchange.getResponseHeaders().put(Headers.ALLOW, ALLOWED_METHODS);
            plain(exchange, 405, "Method Not Allowed");
        }
    }

    /** Hands a complete body to a virtual thread; its budget share is returned however that ends. */
    private void dispatch(HttpServerExchange exchange, BodyReceiver.Body body) {
        exchange.addExchangeCompleteListener((ex, next) -> {
            body.release();
            next.proceed();
        });
        exchange.dispatch(workers, () -> {
            try {
                Connectors.executeRootHandler(ex -> post(ex, body), exchange);
            } finally {
                body.release();
            }
        });
    }

    private void post(HttpServerExchange exchange, BodyReceiver.Body body) {
        JsonNode id = null;
        try {
            Optional<Envelope> envelope = envelope(exchange, body);
            if (envelope.isPresent()) {
                id = envelope.get().id();
                JsonNode token = envelope.get().kind() == Envelope.Kind.REQUEST
                        ? ResponseStream.token(envelope.get().params())
                        : null;
                if (token == null) {
                    answer(exchange, envelope.get());
                } else {
                    // Progress is reported on the request's own SSE stream, opened by the first report.
                    ScopedValue.where(ResponseStream.CURRENT, new ResponseStream(exchange, token))
                            .run(() -> answer(exchange, envelope.get()));
                }
            }
        } catch (RuntimeException | Error e) {
            // CONTRACT.md §2: an unexpected fault is -32603 with a generic message, the detail only in the log.
            fault(exchange, id, e);
        }
    }

    /** The message of a POST, or the 406/415/400 answer already sent. */
    private Optional<Envelope> envelope(HttpServerExchange exchange, BodyReceiver.Body body) {
        HeaderMap headers = exchange.getRequestHeaders();
        if (!acceptsJsonAndEventStream(headers.get(Headers.ACCEPT))) {
            error(
                    exchange,
                    406,
                    null,
                    JsonRpc.INVALID_REQUEST,
                    "Not Acceptable: Accept must include application/json and text/event-stream");
            return Optional.empty();
        }
        if (!isJson(headers.getFirst(Headers.CONTENT_TYPE))) {
            error(
                    exchange,
                    415,
                    null,
                    JsonRpc.INVALID_REQUEST,
                    "Unsupported Media Type: Content-Type must be application/json");
            return Optional.empty();
        }
        JsonNode message;
        try (InputStream in = body.stream()) {
            message = Json.WIRE.readTree(in);
        } catch (IOException e) {
            error(exchange, 400, null, JsonRpc.PARSE_ERROR, "Parse error");
            return Optional.empty();
        }
        if (message == null || message.isMissingNode()) {
            error(exchange, 400, null, JsonRpc.PARSE_ERROR, "Parse error");
            return Optional.empty();
        }
        if (message.isArray()) {
            // Batching was removed in 2025-06-18; a POST body is one JSON-RPC message.
            error(exchange, 400, null, JsonRpc.INVALID_REQUEST, "Batch requests are not supported");
            return Optional.empty();
        }
        Envelope envelope = Envelope.of(message);
        if (envelope.kind() == Envelope.Kind.INVALID) {
            error(exchange, 400, envelope.id(), JsonRpc.INVALID_REQUEST, "Invalid Request");
            return Optional.empty();
        }
        return Optional.of(envelope);
    }

    private void answer(HttpServerExchange exchange, Envelope envelope) {
        if (StatelessGate.stateless(exchange.getRequestHeaders(), envelope)) {
            stateless(exchange, envelope);
            return;
        }
        if (envelope.kind() == Envelope.Kind.REQUEST) {
            stats.request(TransportStats.Era.SESSION);
        }
        if (envelope.kind() == Envelope.Kind.REQUEST && "initialize".equals(envelope.method())) {
            McpDispatcher.Initialized init = dispatcher.initialize(envelope.id(), envelope.params());
            if (init.full()) {
                stats.refused(TransportStats.Refusal.SESSIONS_FULL);
                // Refusing the newcomer keeps every live session (issue 10 item 6); the client may retry later.
                exchange.getResponseHeaders().put(Headers.RETRY_AFTER, RETRY_AFTER_SECONDS);
                json(exchange, 503, init.response());
                return;
            }
            init.session().ifPresent(s -> exchange.getResponseHeaders().put(SESSION_HEADER, s.id()));
            json(exchange, 200, init.response());
            return;
        }
        Optional<McpSession> session = session(exchange, envelope.id());
        if (session.isEmpty()) {
            return;
        }
        switch (envelope.kind()) {
            case NOTIFICATION -> {
                dispatcher.notification(session.get(), envelope.method(), envelope.params());
                accepted(exchange);
            }
            case RESPONSE -> accepted(exchange);
            case REQUEST -> {
                session.get().markUsed();
                respond(exchange, envelope.id(), request(session.get(), envelope));
            }
            case INVALID -> throw new IllegalStateException("handled above");
        }
    }

    /** A session request's answer; one that a {@code notifications/cancelled} may stop is registered while it runs. */
    private ObjectNode request(McpSession session, Envelope envelope) {
        if (!dispatcher.cancellable(envelope.method(), envelope.params())) {
            return dispatcher.request(session, envelope.id(), envelope.method(), envelope.params());
        }
        try (InFlightCalls.Call _ = session.calls().begin(envelope.id())) {
            return dispatcher.request(session, envelope.id(), envelope.method(), envelope.params());
        }
    }

    /**
     * The 2026-07-28 era: no session is looked up or ever issued; the request is checked ({@link StatelessGate})
     * before anything runs. Notifications and responses need no answer.
     */
    private void stateless(HttpServerExchange exchange, Envelope envelope) {
        if (envelope.kind() != Envelope.Kind.REQUEST) {
            accepted(exchange);
            return;
        }
        stats.request(TransportStats.Era.STATELESS);
        switch (StatelessGate.check(exchange.getRequestHeaders(), envelope, dispatcher::paramHeaders)) {
            case StatelessGate.Checked.Refused r -> json(exchange, r.status(), r.body());
            case StatelessGate.Checked.Accepted a -> {
                McpDispatcher.Answer answer = statelessRequest(exchange, a.meta(), envelope);
                if (answer == null) {
                    // The client closed its connection, which cancelled the call (2026-07-28 transports
                    // §Cancellation): nothing more is sent for it.
                    IoUtils.safeClose(exchange.getConnection());
                } else if (answer.status() == 200) {
                    respond(exchange, envelope.id(), answer.body());
                } else {
                    json(exchange, answer.status(), answer.body());
                }
            }
        }
    }

    /**
     * A stateless request's answer, or null when its client left and so cancelled it: a request that a cancellation
     * may stop ({@link McpDispatcher#cancellable}) is watched for its client's close while it runs ({@link
     * Disconnects}).
     */
    private McpDispatcher.Answer statelessRequest(HttpServerExchange exchange, RequestMeta meta, Envelope envelope) {
        ScopedValue.Carrier scope = ScopedValue.where(RequestMeta.CURRENT, meta);
        if (!dispatcher.cancellable(envelope.method(), envelope.params())) {
            return scope.call(() -> dispatcher.stateless(meta, envelope.id(), envelope.method(), envelope.params()));
        }
        Disconnects.Watch watch = disconnects.watch(exchange);
        McpDispatcher.Answer answer;
        try (watch) {
            answer = scope.call(() -> dispatcher.stateless(meta, envelope.id(), envelope.method(), envelope.params()));
        }
        return watch.cancelled() ? null : answer;
    }

    /**
     * Sends a request's answer. One larger than a socket's send buffer may stay in memory until its client takes it,
     * so it is held against the answer budget from now until it is written or abandoned, and for at most the
     * response timeout; one that does not fit is dropped for a 503 with {@code Retry-After} (issue 24 item 4: 150
     * unread 8 MiB downloads ran a 1 GiB heap out). Small answers, the hot path, never touch the budget.
     */
    private void respond(HttpServerExchange exchange, JsonNode id, ObjectNode body) {
        if (ResponseStream.CURRENT.isBound() && ResponseStream.CURRENT.get().finishIfStarted(body)) {
            return;
        }
        WireBytes wire = Json.writeWire(body);
        long length = wire.length();
        if (length > UNBUDGETED_RESPONSE_BYTES) {
            if (!responses.tryReserve(length)) {
                stats.refused(TransportStats.Refusal.ANSWER_BUDGET);
                log.atWarn()
                        .setMessage("mcp_responses_over_budget")
                        .addKeyValue("response_bytes", length)
                        .addKeyValue("held_bytes", responses.reserved())
                        .log();
                exchange.getResponseHeaders().put(Headers.RETRY_AFTER, RETRY_AFTER_SECONDS);
                error(
                        exchange,
                        503,
                        id,
                        JsonRpc.INTERNAL_ERROR,
                        "Server busy: too many large answers waiting for their clients, retry later");
                return;
            }
            hold(exchange, length);
        }
        send(exchange, 200, wire, COMPLETE_ON_IO_THREAD);
    }

    /** Holds {@code length} budget bytes until the exchange ends, closing its connection after the timeout. */
    private void hold(HttpServerExchange exchange, long length) {
        AtomicBoolean held = new AtomicBoolean(true);
        XnioExecutor.Key deadline = exchange.getIoThread()
                .executeAfter(
                        () -> {
                            if (held.getAndSet(false)) {
                                responses.release(length);
                                log.atInfo()
                                        .setMessage("mcp_response_timeout")
                                        .addKeyValue("response_bytes", length)
                                        .log();
                                IoUtils.safeClose(exchange.getConnection());
                            }
                        },
                        limits.responseTimeout().toMillis(),
                        TimeUnit.MILLISECONDS);
        exchange.addExchangeCompleteListener((ex, next) -> {
            if (held.getAndSet(false)) {
                deadline.remove();
                responses.release(length);
            }
            next.proceed();
        });
    }

    private void fault(HttpServerExchange exchange, JsonNode id, Throwable fault) {
        log.atError()
                .setMessage("mcp_internal_error")
                .addKeyValue("exception", fault.getClass().getName())
                .setCause(fault)
                .log();
        if (exchange.isResponseStarted()) {
            // Part of an answer is on the wire: the connection is all that can still tell the client.
            IoUtils.safeClose(exchange.getConnection());
            return;
        }
        exchange.getResponseHeaders().clear();
        // A request's fault is its JSON-RPC error, as for a fault inside a tool; without an id it is the HTTP 500.
        error(exchange, id == null ? 500 : 200, id, JsonRpc.INTERNAL_ERROR, "Internal error");
    }

    /** Answers a refused body; {@code then} completes it (the rest of the body is not read for a next request). */
    private void refuse(HttpServerExchange exchange, BodyReceiver.Refusal refusal, long readBytes, IoCallback then) {
        switch (refusal) {
            case TOO_LARGE -> {
                stats.refused(TransportStats.Refusal.BODY_TOO_LARGE);
                log.atInfo()
                        .setMessage("mcp_request_too_large")
                        .addKeyValue("limit_bytes", maxBodyBytes)
                        .addKeyValue("declared_bytes", exchange.getRequestContentLength())
                        .addKeyValue("read_bytes", readBytes)
                        .log();
                json(exchange, 413, JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "Request body too large"), then);
            }
            case BUSY -> {
                stats.refused(TransportStats.Refusal.BODY_BUDGET);
                log.atWarn()
                        .setMessage("mcp_request_bodies_over_budget")
                        .addKeyValue("in_flight_bytes", budget.reserved())
                        .log();
                exchange.getResponseHeaders().put(Headers.RETRY_AFTER, RETRY_AFTER_SECONDS);
                json(
                        exchange,
                        503,
                        JsonRpc.error(
                                null,
                                JsonRpc.INTERNAL_ERROR,
                                "Server busy: too many request bytes in flight, retry later"),
                        then);
            }
        }
    }

    private void delete(HttpServerExchange exchange) {
        lingerUnreadBody(exchange);
        Optional<McpSession> session = session(exchange, null);
        if (session.isEmpty()) {
            return;
        }
        if (sessions.end(session.get().id())) {
            exchange.setStatusCode(200);
            exchange.endExchange();
        } else {
            error(exchange, 404, null, JsonRpc.INVALID_REQUEST, "Session not found");
        }
    }

    /** The request's live session, or the 400/404 answer (with the request's id when known) already sent. */
    private Optional<McpSession> session(HttpServerExchange exchange, JsonNode requestId) {
        HeaderMap headers = exchange.getRequestHeaders();
        String id = headers.getFirst(SESSION_HEADER);
        if (id == null || id.isEmpty() || headers.count(SESSION_HEADER) > 1) {
            error(exchange, 400, requestId, JsonRpc.INVALID_REQUEST, "Bad Request: Mcp-Session-Id header is required");
            return Optional.empty();
        }
        Optional<McpSession> session = sessions.touch(id);
        if (session.isEmpty()) {
            error(exchange, 404, requestId, JsonRpc.INVALID_REQUEST, "Session not found");
            return Optional.empty();
        }
        HeaderValues versions = headers.get(VERSION_HEADER);
        // Transports §Protocol Version Header: missing means 2025-03-26; invalid or unsupported is 400, and so are two
        // (which one the client meant is unknown).
        if (versions != null && (versions.size() != 1 || !ProtocolVersions.supported(versions.getFirst()))) {
            error(exchange, 400, requestId, JsonRpc.INVALID_REQUEST, "Bad Request: Unsupported protocol version");
            return Optional.empty();
        }
        return session;
    }

    private static void health(HttpServerExchange exchange) {
        HttpString method = exchange.getRequestMethod();
        if (Methods.GET.equals(method) || Methods.HEAD.equals(method)) {
            plain(exchange, 200, "ok");
        } else {
            exchange.getResponseHeaders().put(Headers.ALLOW, "GET, HEAD");
            plain(exchange, 405, "Method Not Allowed");
        }
    }

    static boolean acceptsJsonAndEventStream(HeaderValues accept) {
        if (accept == null) {
            return false;
        }
        boolean json = false;
        boolean events = false;
        for (String value : accept) {
            for (String range : value.split(",")) {
                String[] parts = range.split(";");
                String type = parts[0].strip().toLowerCase(Locale.ROOT);
                if (zeroQuality(parts)) {
                    continue;
                }
                json |= type.equals(JSON) || type.equals("application/*") || type.equals("*/*");
                events |= type.equals(EVENT_STREAM) || type.equals("text/*") || type.equals("*/*");
            }
        }
        return json && events;
    }

    private static boolean zeroQuality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].strip().toLowerCase(Locale.ROOT);
            if (p.startsWith("q=")) {
                try {
                    return Double.parseDouble(p.substring(2)) == 0.0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return false;
    }

    static boolean isJson(String contentType) {
        return contentType != null
                && contentType.split(";")[0].strip().toLowerCase(Locale.ROOT).equals(JSON);
    }

    private static void accepted(HttpServerExchange exchange) {
        exchange.setStatusCode(202);
        exchange.endExchange();
    }

    private static void error(HttpServerExchange exchange, int status, JsonNode id, int code, String message) {
        json(exchange, status, JsonRpc.error(id, code, message));
    }

    private static void json(HttpServerExchange exchange, int status, ObjectNode body) {
        json(exchange, status, body, COMPLETE_ON_IO_THREAD);
    }

    private static void json(HttpServerExchange exchange, int status, ObjectNode body, IoCallback then) {
        send(exchange, status, Json.writeWire(body), then);
    }

    private static void send(HttpServerExchange exchange, int status, WireBytes wire, IoCallback then) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, JSON);
        exchange.setResponseContentLength(wire.length());
        exchange.getResponseSender().send(wire.buffers(), then);
    }

    /**
     * A request answered from its headers alone (refused before its body, a DELETE, {@code /healthz}) has its body
     * drained by Undertow after the answer so that the connection can serve a next request; a client trickling that
     * body would hold the connection with no deadline at all, since the body deadlines watch only the bodies we read
     * ({@link BodyReceiver}). As for a refused body, the drain gets {@link BodyReceiver#LINGER}, then the connection
     * is closed. A body already here drains at once, and its connection stays open.
     */
    private static void lingerUnreadBody(HttpServerExchange exchange) {
        if (exchange.isRequestComplete()) {
            return;
        }
        XnioExecutor.Key deadline = exchange.getIoThread()
                .executeAfter(
                        () -> IoUtils.safeClose(exchange.getConnection()),
                        BodyReceiver.LINGER.toMillis(),
                        TimeUnit.MILLISECONDS);
        exchange.addExchangeCompleteListener((ex, next) -> {
            deadline.remove();
            next.proceed();
        });
    }

    private static void plain(HttpServerExchange exchange, int status, String text) {
        lingerUnreadBody(exchange);
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send(text);
    }
}
