import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.Connectors;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The floor of issue 15's SDK-client rows: a server that does no work and answers ServerFS's exact response
 * bytes. At start it records, from a running ServerFS at RECORD_URL, the answers to initialize (the same
 * params mcp-bench.mjs's SDK client sends), tools/list and one tools/call per test of PROFILE_JSON (with
 * "${ROOT}" replaced by ROOT, as mcp-bench.mjs does). Then it serves on 127.0.0.1:PORT with PingBaseline.java's
 * Undertow settings (2 I/O threads, the same shared buffer pool, the body read on the I/O thread, then a fresh
 * virtual thread per request): initialize, tools/list and tools/call (looked up by tool name and arguments) get
 * the recorded bytes with only the JSON-RPC id replaced by the request's (initialize also the Mcp-Session-Id that
 * ServerFS gave the recording, so even that header has ServerFS's length); ping gets an empty result,
 * notifications 202, GET 405 and DELETE 200, as ServerFS does.
 *
 * Per request work: a Jackson parse of the (small) request body into a tree, for the method, id, tool name and
 * arguments; a hash look-up; one copy of prefix + id + suffix into a single heap buffer (for the 2 MiB read, a
 * 2 MiB copy), sent with one Sender.send and an explicit Content-Length. No session, validation or logging.
 *
 * BUSY (optional, "TEST=MICROS[,TEST=MICROS...]") makes the worker spin that many microseconds of CPU before it
 * answers those tests' calls: the floor of a server whose only work is, say, the kernel's share of a call as
 * statx-probe measures it (issue 15's list_directory).
 *
 *   java -cp bootstrap/target/serverfs.jar tools/mcp/ReplayBaseline.java 3024 http://127.0.0.1:3111/mcp \
 *       tools/mcp/profiles/issue15-serverfs.json /path/to/fixture [list1000=1550]
 *   node tools/mcp/mcp-bench.mjs http://127.0.0.1:3024/mcp --profile tools/mcp/profiles/issue15-serverfs.json
 */
public class ReplayBaseline {
    /** The SDK client's initialize params (its LATEST_PROTOCOL_VERSION, mcp-bench.mjs's client info). */
    static final String INITIALIZE_PARAMS =
            "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"mcp-bench\",\"version\":\"1.0.0\"}}";
    /** The id every recorded request carries; the recorded answer must start with PREFIX + this + ",". */
    static final String RECORD_ID = "7";
    static final byte[] PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8);
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpString SESSION = new HttpString("Mcp-Session-Id");
    /** The session id ServerFS gave the recording session: the same header bytes on the wire. */
    static String sessionId;

    /** A recorded answer without its id: PREFIX + id + suffix is the response, sent after busyNanos of spinning. */
    record Answer(byte[] suffix, long busyNanos) {
        static Answer of(byte[] recorded, String what) {
            int idEnd = PREFIX.length + RECORD_ID.length();
            if (recorded.length <= idEnd
                    || !Arrays.equals(recorded, 0, PREFIX.length, PREFIX, 0, PREFIX.length)
                    || !new String(recorded, PREFIX.length, RECORD_ID.length(), StandardCharsets.UTF_8).equals(RECORD_ID)
                    || recorded[idEnd] != ',') {
                throw new IllegalStateException(what + ": the recorded answer does not start with "
                        + new String(PREFIX, StandardCharsets.UTF_8) + RECORD_ID + ",: "
                        + new String(recorded, 0, Math.min(200, recorded.length), StandardCharsets.UTF_8));
            }
            return new Answer(Arrays.copyOfRange(recorded, idEnd, recorded.length), 0);
        }

        Answer busy(long nanos) {
            return new Answer(suffix, nanos);
        }

        ByteBuffer with(byte[] id) {
            ByteBuffer b = ByteBuffer.allocate(PREFIX.length + id.length + suffix.length);
            return b.put(PREFIX).put(id).put(suffix).flip();
        }
    }

    static final class Recorder {
        final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final URI url;
        String session;
        String protocol;

        Recorder(URI url) {
            this.url = url;
        }

        /** POSTs one message; returns the body, failing unless the answer is the expected status and JSON. */
        byte[] post(String message, int status) throws IOException, InterruptedException {
            HttpRequest.Builder r = HttpRequest.newBuilder(url)
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(message));
            if (session != null) r.header("Mcp-Session-Id", session);
            if (protocol != null) r.header("Mcp-Protocol-Version", protocol);
            HttpResponse<byte[]> res = http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (res.statusCode() != status) {
                throw new IllegalStateException("recording " + message + ": HTTP " + res.statusCode() + ", expected "
                        + status + ": " + new String(res.body(), StandardCharsets.UTF_8));
            }
            if (status == 200 && !res.headers().firstValue("Content-Type").orElse("").startsWith("application/json")) {
                throw new IllegalStateException("recording " + message + ": Content-Type "
                        + res.headers().firstValue("Content-Type").orElse("(none)") + ", expected application/json");
            }
            res.headers().firstValue("Mcp-Session-Id").ifPresent(s -> session = s);
            return res.body();
        }

        Answer request(String method, String params) throws IOException, InterruptedException {
            String message = "{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"method\":\"" + method + "\",\"params\":"
                    + params + "}";
            byte[] body = post(message, 200);
            if (JSON.readTree(body).has("error")) {
                throw new IllegalStateException(method + " " + params + " answered an error: "
                        + new String(body, StandardCharsets.UTF_8));
            }
            return Answer.of(body, method + " " + params);
        }
    }

    /** "${ROOT}" replaced in every string, as mcp-bench.mjs's subst does. */
    static JsonNode substitute(JsonNode v, String root) {
        if (v.isTextual()) return JSON.getNodeFactory().textNode(v.asText().replace("${ROOT}", root));
        if (v.isArray()) {
            var a = JSON.createArrayNode();
            v.forEach(x -> a.add(substitute(x, root)));
            return a;
        }
        if (v.isObject()) {
            ObjectNode o = JSON.createObjectNode();
            for (Map.Entry<String, JsonNode> e : v.properties()) o.set(e.getKey(), substitute(e.getValue(), root));
            return o;
        }
        return v;
    }

    static ObjectNode callKey(JsonNode name, JsonNode arguments) {
        ObjectNode k = JSON.createObjectNode();
        k.set("name", name);
        k.set("arguments", arguments == null || arguments.isNull() ? JSON.createObjectNode() : arguments);
        return k;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Recorder rec = new Recorder(URI.create(args[1]));
        JsonNode profile = JSON.readTree(Files.readAllBytes(Path.of(args[2])));
        String root = args[3];
        Map<String, Long> busyMicros = new HashMap<>();
        if (args.length > 4) {
            for (String item : args[4].split(",")) {
                String[] kv = item.split("=", 2);
                if (kv.length != 2 || !profile.path("tests").has(kv[0])) {
                    throw new IllegalArgumentException("BUSY: expected TEST=MICROS with a test of the profile: " + item);
                }
                busyMicros.put(kv[0], Long.parseLong(kv[1]));
            }
        }

        byte[] initBody = rec.post("{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"method\":\"initialize\",\"params\":"
                + INITIALIZE_PARAMS + "}", 200);
        JsonNode initResult = JSON.readTree(initBody).path("result");
        if (!initResult.isObject()) {
            throw new IllegalStateException("initialize: " + new String(initBody, StandardCharsets.UTF_8));
        }
        Answer initialize = Answer.of(initBody, "initialize");
        rec.protocol = initResult.path("protocolVersion").asText();
        if (rec.session == null) throw new IllegalStateException("initialize answered no Mcp-Session-Id");
        sessionId = rec.session;
        rec.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", 202);
        Answer toolsList = rec.request("tools/list", "{}");
        Map<JsonNode, Answer> calls = new HashMap<>();
        for (Map.Entry<String, JsonNode> test : profile.path("tests").properties()) {
            JsonNode arguments = substitute(test.getValue().path("args").isMissingNode()
                    ? JSON.createObjectNode() : test.getValue().path("args"), root);
            ObjectNode key = callKey(test.getValue().path("tool"), arguments);
            Answer a = rec.request("tools/call", JSON.writeValueAsString(key))
                    .busy(busyMicros.getOrDefault(test.getKey(), 0L) * 1_000);
            calls.put(key, a);
            System.err.println("recorded " + test.getKey() + ": " + (PREFIX.length + RECORD_ID.length()
                    + a.suffix().length) + " B" + (a.busyNanos() > 0 ? ", answered after " + a.busyNanos() / 1_000
                    + " µs of spinning" : ""));
        }
        System.err.println("recorded initialize (protocol " + rec.protocol + "), tools/list and " + calls.size()
                + " tools/call answers from " + args[1]);
        Answer pong = Answer.of(("{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"result\":{}}")
                .getBytes(StandardCharsets.UTF_8), "ping");

        ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
        Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                .setByteBufferPool(new DefaultByteBufferPool(true, 16 * 1024 - 20, 256, 0))
                .setIoThreads(2)
                .setWorkerThreads(2)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 120_000)
                .setHandler(exchange -> exchange.getRequestReceiver().receiveFullBytes((ex, body) ->
                        ex.dispatch(workers, () -> Connectors.executeRootHandler(
                                e -> answer(e, body, initialize, toolsList, calls, pong), ex))))
                .build()
                .start();
        System.err.println("replaying on http://127.0.0.1:" + port + "/mcp");
    }

    static void answer(HttpServerExchange e, byte[] body, Answer initialize, Answer toolsList,
                       Map<JsonNode, Answer> calls, Answer pong) throws IOException {
        if (e.getRequestMethod().equals(Methods.DELETE)) {
            e.setStatusCode(200);
            e.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
            e.endExchange();
            return;
        }
        if (!e.getRequestMethod().equals(Methods.POST)) {
            e.setStatusCode(405);
            e.getResponseHeaders().put(Headers.ALLOW, "POST, DELETE");
            e.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
            e.endExchange();
            return;
        }
        JsonNode message = JSON.readTree(body);
        JsonNode id = message.get("id");
        if (id == null) { // a notification
            e.setStatusCode(202);
            e.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
            e.endExchange();
            return;
        }
        String method = message.path("method").asText();
        Answer a = switch (method) {
            case "initialize" -> initialize;
            case "ping" -> pong;
            case "tools/list" -> toolsList;
            case "tools/call" -> calls.get(callKey(message.path("params").path("name"),
                    message.path("params").get("arguments")));
            default -> null;
        };
        if (a == null) {
            System.err.println("no recorded answer for " + new String(body, StandardCharsets.UTF_8));
            a = Answer.of(("{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID
                    + ",\"error\":{\"code\":-32602,\"message\":\"ReplayBaseline: nothing recorded for this request\"}}")
                    .getBytes(StandardCharsets.UTF_8), "error");
        }
        long busyUntil = System.nanoTime() + a.busyNanos();
        while (System.nanoTime() < busyUntil) {
            Thread.onSpinWait();
        }
        ByteBuffer response = a.with(JSON.writeValueAsBytes(id));
        if (method.equals("initialize")) e.getResponseHeaders().put(SESSION, sessionId);
        e.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        e.getResponseHeaders().put(Headers.CONTENT_LENGTH, response.remaining());
        e.getResponseSender().send(response);
    }
}
