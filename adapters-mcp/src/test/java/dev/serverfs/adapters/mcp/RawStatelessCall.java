package dev.serverfs.adapters.mcp;

import dev.serverfs.adapters.mcp.tools.FilesystemReadTools;
import dev.serverfs.application.port.in.ReadTextFileUseCase;
import dev.serverfs.application.service.ListWorkdirsService;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;

/**
 * 2026-07-28 stateless calls as raw HTTP/1.1 bytes, for tests that need the socket itself (a client that goes away, a
 * server that closes under a call), and the read-only tools with a {@code read_text_file} that blocks until released.
 */
final class RawStatelessCall {

    private static final String META = "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","
            + "\"io.modelcontextprotocol/clientCapabilities\":{}}";

    private RawStatelessCall() {}

    /** The JSON-RPC body of a stateless {@code method} naming {@code tool}. */
    static String request(int id, String method, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"%s\",\"params\":{\"name\":\"%s\",\"arguments\":%s,%s}}"
                .formatted(id, method, tool, arguments, META);
    }

    /** A stateless {@code tools/call} to the server on {@code port} as raw HTTP/1.1 bytes on a keep-alive connection. */
    static byte[] call(int port, int id, String tool, String arguments) {
        byte[] body = request(id, "tools/call", tool, arguments).getBytes(StandardCharsets.UTF_8);
        String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nAccept: " + McpTestClient.ACCEPT
                + "\r\nContent-Type: application/json\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call"
                + "\r\nMcp-Name: " + tool + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }

    /** The body of a raw HTTP/1.1 response. */
    static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    /**
     * The read-only tools of {@link Fixtures#twoWorkdirs}, whose {@code read_text_file} counts {@code started} down and
     * waits for {@code release}; interrupted, it runs {@code onInterrupt} and ends cancelled.
     */
    static List<McpTool> blockingReadTools(CountDownLatch started, CountDownLatch release, Runnable onInterrupt) {
        ReadTextFileUseCase read = query -> {
            started.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                onInterrupt.run();
                throw new CancellationException("read cancelled");
            }
            return new ReadTextFileUseCase.TextFileContent(
                    query.workdir(), query.path(), 1, 1, "x\n", 2, false, null, "v1:0000000000000000");
        };
        return new FilesystemReadTools(
                        new ListWorkdirsService(Fixtures.twoWorkdirs()),
                        q -> null,
                        q -> null,
                        q -> null,
                        read,
                        q -> null)
                .definitions();
    }
}
