package dev.serverfs.adapters.ingress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A deliberately dumb HTTP/1.1 client over a raw socket, so tests can send exactly the bytes they mean (wrong
 * Content-Length, chunked bodies, odd methods). Always sends {@code Connection: close} and reads to EOF.
 */
final class RawHttp {

    record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /**
     * {@code head} is the request line plus headers without the final blank line; {@code Host: 127.0.0.1:<port>} (what
     * a client of that URL sends) and Connection: close are added.
     */
    static Response send(InetSocketAddress to, String head, byte[] body) {
        return exchange(to, head + "\r\nHost: 127.0.0.1:" + to.getPort(), body);
    }

    /** As {@link #send(InetSocketAddress, String, byte[])}, but {@code head} carries its own Host header (or none). */
    static Response sendWithOwnHost(InetSocketAddress to, String head, byte[] body) {
        return exchange(to, head, body);
    }

    private static Response exchange(InetSocketAddress to, String head, byte[] body) {
        try (Socket socket = new Socket(to.getAddress(), to.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((head + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Response postJson(InetSocketAddress to, String json) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return send(
                to, "POST /fetch HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: " + body.length, body);
    }

    private static Response parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        byte[] raw = all.toByteArray();
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(
                    lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).strip());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Response(status, headers, body);
    }

    private static byte[] dechunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        while (true) {
            int lineEnd = indexOf(java.util.Arrays.copyOfRange(body, pos, body.length), new byte[] {'\r', '\n'}) + pos;
            int size = Integer.parseInt(new String(body, pos, lineEnd - pos, StandardCharsets.US_ASCII).strip(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(body, lineEnd + 2, size);
            pos = lineEnd + 2 + size + 2;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new IllegalStateException("malformed HTTP response");
    }
}
