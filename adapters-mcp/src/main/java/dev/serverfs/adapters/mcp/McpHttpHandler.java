package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Streamable HTTP at {@code /mcp} (MCP 2025-11-25 basic/transports) and {@code GET /healthz}. On the I/O thread
 * only cheap header checks run, in this order: Host (421), Origin (403), bearer token (401), method (405 with
 * {@code Allow}). POST and DELETE then continue on a virtual thread, where the body is read under the size limit
 * (413, chunked bodies included), Accept (406) and Content-Type (415) are checked, sessions (400 missing, 404
 * unknown or ended) and {@code MCP-Protocol-Version} (400 unsupported) are validated, and the message is
 * dispatched. Responses are single JSON documents; we offer no server-initiated SSE stream, so GET is 405.
 */
final class McpHttpHandler implements HttpHandler {

    static final String MCP_PATH = "/mcp";
    static final String HEALTH_PATH = "/healthz";
    static final HttpString SESSION_HEADER = new HttpString("Mcp-Session-Id");
    static final HttpString VERSION_HEADER = new HttpString("MCP-Protocol-Version");

    private static final Logger log = LoggerFactory.getLogger(McpHttpHandler.class);
    private static final String JSON = "application/json";
    private static final String EVENT_STREAM = "text/event-stream";
    private static final String ALLOWED_METHODS = "POST, DELETE";
    /** After the limit is passed, this much more is read and dropped so the client sees the 413. */
    private static final long DRAIN_BYTES = 8L * 1024 * 1024;

    private final Supplier<RequestGate> gate;
    private final McpSessions sessions;
    private final McpDispatcher dispatcher;
    private final long maxBodyBytes;
    private final Executor workers;

    McpHttpHandler(
            Supplier<RequestGate> gate,
            McpSessions sessions,
            McpDispatcher dispatcher,
            long maxBodyBytes,
            Executor workers) {
        this.gate = Objects.requireNonNull(gate, "gate");
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.maxBodyBytes = maxBodyBytes;
        this.workers = Objects.requireNonNull(workers, "workers");
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
            exchange.dispatch(workers, this::post);
        } else if (Methods.DELETE.equals(method)) {
            exchange.dispatch(workers, this::delete);
        } else {
            // No server-initiated SSE stream: GET (and anything else) is 405 with Allow (transports §GET).
            exchange.getResponseHeaders().put(Headers.ALLOW, ALLOWED_METHODS);
            plain(exchange, 405, "Method Not Allowed");
        }
    }

    private void post(HttpServerExchange exchange) throws IOException {
        // Undertow's own default entity ceiling (UndertowOptions.DEFAULT_MAX_ENTITY_SIZE, 2 MiB) would answer a
        // bare 413 below our limit (reference §1.4: up to 4*ceil(raw/3) + 64 KiB); readBody enforces the limit.
        exchange.setMaxEntitySize(-1);
        exchange.startBlocking();
        HeaderMap headers = exchange.getRequestHeaders();
        if (exchange.getRequestContentLength() > maxBodyBytes) {
            tooLarge(exchange, exchange.getInputStream(), 0);
            return;
        }
        Optional<byte[]> body = readBody(exchange);
        if (body.isEmpty()) {
            return;
        }
        if (!acceptsJsonAndEventStream(headers.get(Headers.ACCEPT))) {
            error(
                    exchange,
                    406,
                    null,
                    JsonRpc.INVALID_REQUEST,
                    "Not Acceptable: Accept must include application/json and text/event-stream");
            return;
        }
        if (!isJson(headers.getFirst(Headers.CONTENT_TYPE))) {
            error(
                    exchange,
                    415,
                    null,
                    JsonRpc.INVALID_REQUEST,
                    "Unsupported Media Type: Content-Type must be application/json");
            return;
        }
        JsonNode message;
        try {
            message = Json.WIRE.readTree(body.get());
        } catch (JacksonException e) {
            error(exchange, 400, null, JsonRpc.PARSE_ERROR, "Parse error");
            return;
        }
        if (message == null || message.isMissingNode()) {
            error(exchange, 400, null, JsonRpc.PARSE_ERROR, "Parse error");
            return;
        }
        if (message.isArray()) {
            // Batching was removed in 2025-06-18; a POST body is one JSON-RPC message.
            error(exchange, 400, null, JsonRpc.INVALID_REQUEST, "Batch requests are not supported");
            return;
        }
        Envelope envelope = Envelope.of(message);
        if (envelope.kind() == Envelope.Kind.INVALID) {
            error(exchange, 400, envelope.id(), JsonRpc.INVALID_REQUEST, "Invalid Request");
            return;
        }
        if (envelope.kind() == Envelope.Kind.REQUEST && "initialize".equals(envelope.method())) {
            McpDispatcher.Initialized init = dispatcher.initialize(envelope.id(), envelope.params());
            init.session().ifPresent(s -> exchange.getResponseHeaders().put(SESSION_HEADER, s.id()));
            json(exchange, 200, init.response());
            return;
        }
        Optional<McpSession> session = session(exchange);
        if (session.isEmpty()) {
            return;
        }
        switch (envelope.kind()) {
            case NOTIFICATION -> {
                dispatcher.notification(session.get(), envelope.method());
                accepted(exchange);
            }
            case RESPONSE -> accepted(exchange);
            case REQUEST ->
                json(
                        exchange,
                        200,
                        dispatcher.request(session.get(), envelope.id(), envelope.method(), envelope.params()));
            case INVALID -> throw new IllegalStateException("handled above");
        }
    }

    private void delete(HttpServerExchange exchange) {
        Optional<McpSession> session = session(exchange);
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

    /** The request's live session, or the 400/404 answer already sent. */
    private Optional<McpSession> session(HttpServerExchange exchange) {
        HeaderMap headers = exchange.getRequestHeaders();
        String id = headers.getFirst(SESSION_HEADER);
        if (id == null || id.isEmpty() || headers.count(SESSION_HEADER) > 1) {
            error(exchange, 400, null, JsonRpc.INVALID_REQUEST, "Bad Request: Mcp-Session-Id header is required");
            return Optional.empty();
        }
        Optional<McpSession> session = sessions.touch(id);
        if (session.isEmpty()) {
            error(exchange, 404, null, JsonRpc.INVALID_REQUEST, "Session not found");
            return Optional.empty();
        }
        String version = headers.getFirst(VERSION_HEADER);
        // Transports §Protocol Version Header: missing means 2025-03-26; invalid or unsupported is 400.
        if (version != null && !ProtocolVersions.supported(version)) {
            error(exchange, 400, null, JsonRpc.INVALID_REQUEST, "Bad Request: Unsupported protocol version");
            return Optional.empty();
        }
        return session;
    }

    /** Reads the whole body, or answers 413 once it passes the limit (works for chunked bodies too). */
    private Optional<byte[]> readBody(HttpServerExchange exchange) throws IOException {
        InputStream in = exchange.getInputStream();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 * 1024];
        long total = 0;
        int n;
        while ((n = in.read(buffer)) != -1) {
            total += n;
            if (total > maxBodyBytes) {
                tooLarge(exchange, in, total);
                return Optional.empty();
            }
            body.write(buffer, 0, n);
        }
        return Optional.of(body.toByteArray());
    }

    private void tooLarge(HttpServerExchange exchange, InputStream in, long alreadyRead) throws IOException {
        long dropped = 0;
        byte[] buffer = new byte[16 * 1024];
        int n;
        while (dropped < DRAIN_BYTES && (n = in.read(buffer)) != -1) {
            dropped += n;
        }
        log.atInfo()
                .setMessage("mcp_request_too_large")
                .addKeyValue("limit_bytes", maxBodyBytes)
                .addKeyValue("read_bytes", alreadyRead + dropped)
                .log();
        exchange.setPersistent(false);
        error(exchange, 413, null, JsonRpc.INVALID_REQUEST, "Request body too large");
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
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, JSON);
        exchange.getResponseSender().send(ByteBuffer.wrap(Json.writeBytes(body)));
    }

    private static void plain(HttpServerExchange exchange, int status, String text) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
        exchange.getResponseSender().send(text);
    }
}
