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
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The zero-work floor of issue 23's era comparison (bench-eras.sh): a server that answers a 2025-11-25 (session) and
 * a 2026-07-28 (stateless) request with ServerFS's exact bytes for that era, so the difference between its two eras
 * is what the protocol's own extra bytes cost (the stateless request's ~200 bytes of {@code _meta} and three more
 * headers in, {@code resultType} out), and the difference between ServerFS's ratio and this one is what ServerFS
 * adds.
 *
 * At start it records from a running ServerFS at RECORD_URL, per era: the era's empty request ({@code ping} on a
 * session, {@code server/discover} stateless) and one {@code tools/call} per CALL argument ({@code
 * TOOL=ARGUMENTS_JSON}), each stateless request with the same {@code _meta} and {@code Mcp-Method}/{@code Mcp-Name}
 * headers bench-eras.sh sends. Then it serves them on 127.0.0.1:PORT with ReplayBaseline.java's Undertow settings (2
 * I/O threads, its buffer pool, the body read on the I/O thread, a fresh virtual thread per request). Per request: a
 * Jackson parse of the whole body into a tree (as ServerFS parses it: the {@code _meta} bytes are parsed too), the
 * era from the {@code MCP-Protocol-Version} header, a hash look-up by era, method, tool and arguments, and one copy of
 * prefix + the request's id + the recorded suffix into a heap buffer, sent with an explicit Content-Length. No
 * session, no validation, no logging.
 *
 *   java -cp bootstrap/target/serverfs.jar tools/mcp/ReplayEras.java 18822 http://127.0.0.1:18821/mcp \
 *       'stat_file={"workdir":"bench","path":"small.txt"}' ...
 */
public class ReplayEras {
    static final String STATELESS = "2026-07-28";
    static final String META = "{\"io.modelcontextprotocol/protocolVersion\":\"" + STATELESS
            + "\",\"io.modelcontextprotocol/clientCapabilities\":{},"
            + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"bench-eras\",\"version\":\"1\"}}";
    static final String RECORD_ID = "7";
    static final byte[] PREFIX = "{\"jsonrpc\":\"2.0\",\"id\":".getBytes(StandardCharsets.UTF_8);
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpString VERSION = new HttpString("MCP-Protocol-Version");
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** A recorded answer without its id: PREFIX + id + suffix is the response. */
    record Answer(byte[] suffix) {
        static Answer of(byte[] recorded, String what) throws IOException {
            int idEnd = PREFIX.length + RECORD_ID.length();
            if (recorded.length <= idEnd
                    || !Arrays.equals(recorded, 0, PREFIX.length, PREFIX, 0, PREFIX.length)
                    || recorded[idEnd] != ','
                    || JSON.readTree(recorded).has("error")) {
                throw new IllegalStateException(what + ": not a result with id " + RECORD_ID + ": "
                        + new String(recorded, 0, Math.min(200, recorded.length), StandardCharsets.UTF_8));
            }
            return new Answer(Arrays.copyOfRange(recorded, idEnd, recorded.length));
        }

        ByteBuffer with(byte[] id) {
            return ByteBuffer.allocate(PREFIX.length + id.length + suffix.length).put(PREFIX).put(id).put(suffix).flip();
        }
    }

    /** POSTs one message (a session's when {@code session} is set, else a stateless one); the body when 200. */
    static HttpResponse<byte[]> post(URI url, String message, String session, String method, String name)
            throws IOException, InterruptedException {
        HttpRequest.Builder r = HttpRequest.newBuilder(url)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(message));
        if (session != null) {
            r.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
        } else if (method != null) {
            r.header("MCP-Protocol-Version", STATELESS).header("Mcp-Method", method);
            if (name != null) r.header("Mcp-Name", name);
        }
        HttpResponse<byte[]> res = HTTP.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (res.statusCode() / 100 != 2) {
            throw new IllegalStateException("recording " + method + ": HTTP " + res.statusCode() + ": "
                    + new String(res.body(), StandardCharsets.UTF_8));
        }
        return res;
    }

    /** The look-up key of a request: era, method, and for a call its tool and arguments. */
    static ObjectNode key(boolean stateless, String method, JsonNode params) {
        ObjectNode k = JSON.createObjectNode().put("stateless", stateless).put("method", method);
        if ("tools/call".equals(method)) {
            k.set("name", params.path("name"));
            k.set("arguments", params.path("arguments"));
        }
        return k;
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        URI url = URI.create(args[1]);
        List<String> calls = List.of(args).subList(2, args.length);
        Map<JsonNode, Answer> answers = new HashMap<>();

        String session = post(url, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
                        + "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"bench-eras\",\"version\":\"1\"}}}", null, null, null)
                .headers().firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new IllegalStateException("initialize answered no Mcp-Session-Id"));
        post(url, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session, null, null);
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"method\":\"ping\"}";
        answers.put(key(false, "ping", null), Answer.of(post(url, ping, session, "ping", null).body(), "ping"));
        String discover = "{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"method\":\"server/discover\",\"params\":{"
                + "\"_meta\":" + META + "}}";
        answers.put(key(true, "server/discover", null),
                Answer.of(post(url, discover, null, "server/discover", null).body(), "server/discover"));
        for (String call : calls) {
            String[] tv = call.split("=", 2);
            JsonNode arguments = JSON.readTree(tv[1]);
            for (boolean stateless : new boolean[] {false, true}) {
                ObjectNode params = JSON.createObjectNode().put("name", tv[0]);
                params.set("arguments", arguments);
                if (stateless) params.set("_meta", JSON.readTree(META));
                String message = "{\"jsonrpc\":\"2.0\",\"id\":" + RECORD_ID + ",\"method\":\"tools/call\",\"params\":"
                        + JSON.writeValueAsString(params) + "}";
                byte[] body = post(url, message, stateless ? null : session, "tools/call", tv[0]).body();
                answers.put(key(stateless, "tools/call", params), Answer.of(body, tv[0]));
                System.err.println("recorded " + tv[0] + (stateless ? " stateless: " : " session: ") + body.length
                        + " B");
            }
        }

        ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
        Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                .setByteBufferPool(new DefaultByteBufferPool(true, 16 * 1024 - 20, 256, 0))
                .setIoThreads(2)
                .setWorkerThreads(2)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 120_000)
                .setHandler(exchange -> exchange.getRequestReceiver().receiveFullBytes((ex, body) ->
                        ex.dispatch(workers, () -> Connectors.executeRootHandler(e -> answer(e, body, answers), ex))))
                .build()
                .start();
        System.err.println("replaying both eras on http://127.0.0.1:" + port + "/mcp");
    }

    static void answer(HttpServerExchange e, byte[] body, Map<JsonNode, Answer> answers) throws IOException {
        JsonNode message = JSON.readTree(body);
        boolean stateless = STATELESS.equals(e.getRequestHeaders().getFirst(VERSION));
        Answer a = answers.get(key(stateless, message.path("method").asText(), message.path("params")));
        if (a == null) {
            e.setStatusCode(400);
            e.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
            e.endExchange();
            return;
        }
        ByteBuffer response = a.with(JSON.writeValueAsBytes(message.get("id")));
        e.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        e.getResponseHeaders().put(Headers.CONTENT_LENGTH, response.remaining());
        e.getResponseSender().send(response);
    }
}
