package dev.serverfs.adapters.ingress;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import dev.serverfs.application.port.in.FetchRemoteFileUseCase.FetchRemoteFileCommand;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.xnio.IoUtils;

/**
 * The sidecar's whole HTTP surface (contract reference §8): {@code GET /healthz} and {@code POST /fetch}, matched on
 * the raw request path (no percent-decoding, no stripped {@code ;} parameters); every other method or path is 404
 * {@code {"code":"NOT_FOUND"}}. Before anything else, the one {@code Host} header must name this sidecar
 * ({@link #hostAllowed}), else 421 {@code FILE_INGRESS_BAD_REQUEST}. No access logging; only unexpected faults are
 * logged, by exception type, never with the URL.
 */
final class SidecarHandler implements HttpHandler {

    static final int MAX_REQUEST_BYTES = 65_536;
    /** Longer than the socket write timeout, which fails (and so ends) any exchange whose answer cannot be written. */
    static final Duration EXCHANGE_END_BOUND = Duration.ofSeconds(90);

    private static final Logger log = LoggerFactory.getLogger(SidecarHandler.class);
    /** Strict: duplicate keys and anything after the one JSON value (a second value, garbage) are bad requests. */
    private static final ObjectReader JSON = IngressJson.MAPPER
            .reader()
            .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private static final Set<ErrorCode> CLIENT_FAULTS = EnumSet.of(
            ErrorCode.FILE_INGRESS_URL_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_HOST_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED,
            ErrorCode.FILE_INGRESS_BAD_REQUEST);

    private final FetchRemoteFileUseCase fetch;
    private final Executor workers;
    private final Set<String> hostNames;
    private volatile boolean closing;

    /** {@code hostNames}: the names (lower case, IPv6 literals in brackets) under which clients reach the sidecar. */
    SidecarHandler(FetchRemoteFileUseCase fetch, Executor workers, Set<String> hostNames) {
        this.fetch = Objects.requireNonNull(fetch, "fetch");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.hostNames = Set.copyOf(hostNames);
    }

    /**
     * From now on every request, {@code /healthz} too, is answered 503 {@code FILE_INGRESS_UNAVAILABLE} and its
     * connection closed: the sidecar is going away (a request already past this check is answered as usual).
     */
    void refuseNewRequests() {
        closing = true;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) {
        if (closing) {
            refuse(exchange);
            return;
        }
        // A web page whose name was rebound to this address (DNS rebinding) can post to /fetch, but its requests
        // carry the page's own host name: refused here, before the body is read, and the connection is not reused.
        if (!hostAllowed(exchange)) {
            exchange.setPersistent(false);
            sendCode(exchange, 421, ErrorCode.FILE_INGRESS_BAD_REQUEST.wire());
            return;
        }
        // The raw target, not Undertow's decoded path without path parameters: /%66etch and /fetch;x are not /fetch.
        String path = exchange.getRequestURI();
        if ("/healthz".equals(path) && Methods.GET.equals(exchange.getRequestMethod())) {
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain; charset=utf-8");
            exchange.getResponseSender().send("ok\n");
            return;
        }
        if (!"/fetch".equals(path) || !Methods.POST.equals(exchange.getRequestMethod())) {
            sendCode(exchange, 404, "NOT_FOUND");
            return;
        }
        long length;
        try {
            length = checkHeaders(exchange);
        } catch (ServerFsException e) {
            sendCode(exchange, 400, e.code().wire());
            return;
        }
        if (length > MAX_REQUEST_BYTES) {
            // Reference §8: an oversized request is 413 with the bad-request code; its body is never read.
            sendCode(exchange, 413, ErrorCode.FILE_INGRESS_BAD_REQUEST.wire());
            return;
        }
        // The body (at most 64 KiB) is read here on the I/O thread without blocking, and only the whole of it goes to
        // a virtual thread: a blocking read there that has to wait opens an XNIO selector (two descriptors) per
        // thread, which piled up until a GC (issue 10 item 5).
        exchange.getRequestReceiver()
                .receiveFullBytes(
                        (ex, body) -> {
                            try {
                                ex.dispatch(workers, worker -> answer(worker, body));
                            } catch (RejectedExecutionException closed) {
                                refuse(ex);
                            }
                        },
                        (ex, e) -> IoUtils.safeClose(ex.getConnection()));
    }

    private static void refuse(HttpServerExchange exchange) {
        exchange.setPersistent(false);
        sendCode(exchange, 503, ErrorCode.FILE_INGRESS_UNAVAILABLE.wire());
    }

    /**
     * Fetches on a worker and answers; returns only once the exchange has ended, whichever thread wrote its last bytes,
     * so that the sidecar's {@link UndertowIngressSidecar#close} drains the answers in flight by waiting for its
     * workers. A write that cannot finish fails within the socket's write timeout, which ends the exchange too;
     * {@link #EXCHANGE_END_BOUND} only keeps a worker from waiting forever should Undertow never end it.
     */
    private void answer(HttpServerExchange exchange, byte[] body) {
        CountDownLatch ended = new CountDownLatch(1);
        exchange.addExchangeCompleteListener((ex, next) -> {
            try {
                next.proceed();
            } finally {
                ended.countDown();
            }
        });
        respond(exchange, body);
        try {
            if (!ended.await(EXCHANGE_END_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                IoUtils.safeClose(exchange.getConnection());
            }
        } catch (InterruptedException e) {
            // The sidecar's close ran out of grace: the connection goes with this worker.
            IoUtils.safeClose(exchange.getConnection());
            Thread.currentThread().interrupt();
        }
    }

    private void respond(HttpServerExchange exchange, byte[] body) {
        byte[] file;
        try {
            file = fetch.fetch(readCommand(body));
        } catch (ServerFsException e) {
            sendCode(exchange, statusOf(e.code()), e.code().wire());
            return;
        } catch (RuntimeException | Error e) {
            // Whatever the fault (a StackOverflowError included), the caller gets the coded answer, never an empty 500.
            log.atError()
                    .setMessage("ingress_fault")
                    .addKeyValue("exception", e.getClass().getName())
                    .log();
            sendCode(exchange, 502, ErrorCode.FILE_INGRESS_UPSTREAM_FAILED.wire());
            return;
        }
        exchange.setStatusCode(200);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/octet-stream");
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, file.length);
        // Undertow's non-blocking sender: a large file never parks this virtual thread on a selector.
        exchange.getResponseSender().send(ByteBuffer.wrap(file));
    }

    /**
     * Exactly one {@code Host} header whose value is one of {@link #hostNames} with the port the request arrived on
     * (without a port only on port 80, which clients leave out). Names compare case-insensitively (RFC 9110 §4.2.3).
     */
    private boolean hostAllowed(HttpServerExchange exchange) {
        HeaderValues values = exchange.getRequestHeaders().get(Headers.HOST);
        if (values == null || values.size() != 1) {
            return false;
        }
        String host = values.getFirst().toLowerCase(Locale.ROOT);
        int port = exchange.getDestinationAddress().getPort();
        String suffix = ":" + port;
        if (host.endsWith(suffix)) {
            return hostNames.contains(host.substring(0, host.length() - suffix.length()));
        }
        return port == 80 && hostNames.contains(host);
    }

    /** Reference §8: JSON content type and a Content-Length of at least 1 (no chunked bodies); returns it. */
    private static long checkHeaders(HttpServerExchange exchange) {
        String type = exchange.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
        if (type == null || !type.strip().toLowerCase(Locale.ROOT).startsWith("application/json")) {
            throw badRequest();
        }
        if (exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING)) {
            throw badRequest();
        }
        long length = parseLength(exchange.getRequestHeaders().getFirst(Headers.CONTENT_LENGTH));
        if (length < 1) {
            throw badRequest();
        }
        return length;
    }

    /** The JSON body: an object with a string {@code download_url} and a positive integer {@code max_bytes}. */
    private static FetchRemoteFileCommand readCommand(byte[] body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw badRequest();
        }
        if (root == null || !root.isObject()) {
            throw badRequest();
        }
        JsonNode url = root.get("download_url");
        JsonNode max = root.get("max_bytes");
        if (url == null || !url.isTextual() || max == null || !max.isIntegralNumber()) {
            throw badRequest();
        }
        BigInteger maxBytes = max.bigIntegerValue();
        if (maxBytes.signum() <= 0) {
            throw badRequest();
        }
        long limit = maxBytes.bitLength() < 64 ? maxBytes.longValue() : Long.MAX_VALUE;
        return new FetchRemoteFileCommand(url.textValue(), limit);
    }

    /** The Content-Length value, {@code -1} when absent or not a plain decimal number. */
    private static long parseLength(String header) {
        if (header == null || header.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < header.length(); i++) {
            if (header.charAt(i) < '0' || header.charAt(i) > '9') {
                return -1;
            }
        }
        return header.length() > 18 ? Long.MAX_VALUE : Long.parseLong(header);
    }

    /** Reference §8 status table. */
    static int statusOf(ErrorCode code) {
        if (CLIENT_FAULTS.contains(code)) {
            return 400;
        }
        return code == ErrorCode.BINARY_PAYLOAD_TOO_LARGE ? 413 : 502;
    }

    private static ServerFsException badRequest() {
        return new ServerFsException(ErrorCode.FILE_INGRESS_BAD_REQUEST, "malformed fetch request");
    }

    private static void sendCode(HttpServerExchange exchange, int status, String code) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        byte[] json = ("{\"code\":\"" + code + "\"}").getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, json.length);
        exchange.getResponseSender().send(ByteBuffer.wrap(json));
    }
}
