package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The answer to one request that carried a {@code progressToken}, sent as an SSE stream once the first progress
 * report arrives: {@code notifications/progress} events, then the response as the last event, which ends the stream
 * (2025-11-25 and 2026-07-28 basic/transports: a request's SSE stream carries notifications related to it, then its
 * response). A request that reports no progress is answered as a single JSON document, exactly as before. Reports
 * after the response, or after the client closed the stream, are dropped (basic/utilities/progress: progress stops
 * after completion).
 */
final class ResponseStream {

    /** The stream of the request being served on this thread, bound by the transport around its dispatch. */
    static final ScopedValue<ResponseStream> CURRENT = ScopedValue.newInstance();

    private static final String EVENT_STREAM = "text/event-stream";
    private static final HttpString ACCEL_BUFFERING = new HttpString("X-Accel-Buffering");

    private final HttpServerExchange exchange;
    private final JsonNode token;
    private OutputStream out;
    private boolean closed;

    ResponseStream(HttpServerExchange exchange, JsonNode token) {
        this.exchange = Objects.requireNonNull(exchange, "exchange");
        this.token = Objects.requireNonNull(token, "token");
    }

    /** The request's {@code _meta.progressToken} when it is a string or an integer (the spec's two forms), or null. */
    static JsonNode token(JsonNode params) {
        JsonNode meta = params == null ? null : params.get("_meta");
        JsonNode token = meta == null ? null : meta.get("progressToken");
        return token != null && (token.isTextual() || token.isIntegralNumber()) ? token : null;
    }

    /** Where the tool call on this thread reports progress. */
    static Progress progress() {
        if (!CURRENT.isBound()) {
            return Progress.NONE;
        }
        ResponseStream stream = CURRENT.get();
        return stream::report;
    }

    synchronized void report(double progress, Double total, String message) {
        if (closed) {
            return;
        }
        ObjectNode notification = Json.object();
        notification.put("jsonrpc", "2.0");
        notification.put("method", "notifications/progress");
        ObjectNode params = notification.putObject("params");
        params.set("progressToken", token);
        params.put("progress", progress);
        if (total != null) {
            params.put("total", total);
        }
        if (message != null) {
            params.put("message", message);
        }
        try {
            if (out == null) {
                exchange.setStatusCode(200);
                exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, EVENT_STREAM);
                exchange.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
                // 2026-07-28 transports: keep reverse proxies from holding the events back.
                exchange.getResponseHeaders().put(ACCEL_BUFFERING, "no");
                exchange.startBlocking();
                out = exchange.getOutputStream();
            }
            event(notification);
        } catch (IOException e) {
            // The client closed the stream: nothing more is sent for this request.
            closed = true;
        }
    }

    /**
     * Sends the response as the stream's last event and ends the stream, when the answer already is a stream;
     * otherwise closes this stream to later reports (the caller sends the response as JSON) and returns false.
     */
    synchronized boolean finishIfStarted(ObjectNode response) {
        boolean open = !closed;
        closed = true;
        if (out == null) {
            return false;
        }
        try (OutputStream _ = out) {
            if (open) {
                event(response);
            }
        } catch (IOException e) {
            // The client left before its answer: nothing else to tell it.
        }
        exchange.endExchange();
        return true;
    }

    private void event(ObjectNode message) throws IOException {
        out.write("event: message\ndata: ".getBytes(StandardCharsets.US_ASCII));
        out.write(Json.writeBytes(message));
        out.write("\n\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
