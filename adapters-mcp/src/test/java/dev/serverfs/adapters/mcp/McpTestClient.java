package dev.serverfs.adapters.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Real HTTP against a running server: java.net.http for normal requests, a raw socket for exact bytes. */
final class McpTestClient {

    static final String ACCEPT = "application/json, text/event-stream";
    static final String INIT = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},\
            "clientInfo":{"name":"test","version":"1"}}}""";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final int port;

    McpTestClient(int port) {
        this.port = port;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** POST /mcp with the standard Accept and Content-Type unless {@code headers} override them. */
    HttpResponse<String> post(String body, Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Accept", ACCEPT);
        all.put("Content-Type", "application/json");
        all.putAll(headers);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri("/mcp"))
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        all.forEach((k, v) -> {
            if (v != null) {
                request.header(k, v);
            }
        });
        return send(request.build());
    }

    HttpResponse<String> post(String body) {
        return post(body, Map.of());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> request(String method, String path, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
                .timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(request::header);
        return send(request.build());
    }

    /** Opens a session at {@code version}; returns its id. */
    String initialize(String version) {
        HttpResponse<String> response = post(INIT.formatted(version));
        if (response.statusCode() != 200) {
            throw new AssertionError("initialize failed: " + response.statusCode() + " " + response.body());
        }
        return response.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    String initialize() {
        return initialize("2025-11-25");
    }

    static Map<String, String> session(String id) {
        return Map.of("Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-11-25");
    }

    static JsonNode json(HttpResponse<String> response) {
        try {
            return Json.WIRE.readTree(response.body());
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + response.body(), e);
        }
    }

    /** Sends raw request bytes on a fresh connection and returns the raw response up to the connection's end. */
    String raw(byte[] request) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request);
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            in.transferTo(response);
            return response.toString(StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A one-shot HTTP/1.1 POST /mcp with exact headers ({@code Connection: close} added). */
    String rawPost(String host, String extraHeaders, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "POST /mcp HTTP/1.1\r\nHost: " + host + "\r\nAccept: " + ACCEPT
                + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n" + extraHeaders
                + "Connection: close\r\n\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[headBytes.length + bytes.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(bytes, 0, all, headBytes.length, bytes.length);
        return raw(all);
    }

    static int status(String rawResponse) {
        return Integer.parseInt(rawResponse.substring(9, 12));
    }

    /** One HTTP/1.1 response with a Content-Length body, read off a keep-alive stream. */
    static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed inside a response head: " + head);
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        int length = headers.lines()
                .filter(l -> l.regionMatches(true, 0, "Content-Length:", 0, 15))
                .mapToInt(l -> Integer.parseInt(l.substring(15).trim()))
                .findFirst()
                .orElseThrow();
        return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
