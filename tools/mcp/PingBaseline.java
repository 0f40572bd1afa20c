import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.Connectors;
import io.undertow.server.DefaultByteBufferPool;
import io.undertow.util.Headers;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The ping row's yardstick (issue 15): Undertow with ServerFS's settings (2 I/O threads, the same shared buffer
 * pool), the body read on the I/O thread, then a fresh virtual thread per request that answers a fixed JSON-RPC
 * ping result, with no parsing, session or validation. What ServerFS's ping costs on top of that is its own.
 *
 *   java -cp bootstrap/target/serverfs.jar tools/mcp/PingBaseline.java 3020
 *   tools/mcp/bench-ping.sh http://127.0.0.1:3020/mcp 10s 16 2   # any initialize answer carries a session id
 */
public class PingBaseline {
    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        byte[] pong = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8);
        ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().factory());
        Undertow.builder()
                .addHttpListener(port, "127.0.0.1")
                .setByteBufferPool(new DefaultByteBufferPool(true, 16 * 1024 - 20, 256, 0))
                .setIoThreads(2)
                .setWorkerThreads(2)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 120_000)
                .setHandler(exchange -> exchange.getRequestReceiver().receiveFullBytes((ex, body) ->
                        ex.dispatch(workers, () -> Connectors.executeRootHandler(e -> {
                            e.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
                            e.getResponseHeaders().put(new io.undertow.util.HttpString("Mcp-Session-Id"), "baseline");
                            e.getResponseSender().send(ByteBuffer.wrap(pong));
                        }, ex))))
                .build()
                .start();
    }
}
