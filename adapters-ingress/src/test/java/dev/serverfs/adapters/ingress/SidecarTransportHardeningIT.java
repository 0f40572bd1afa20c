package dev.serverfs.adapters.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.application.port.in.FetchRemoteFileUseCase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sidecar's Undertow server had the MCP endpoint's transport defects (issue 10): a request body read by a
 * blocking read on a virtual thread left an XNIO selector (two descriptors) behind whenever the body came after
 * the headers, and an {@link Error} in a fetch was an empty 500.
 */
class SidecarTransportHardeningIT {

    private static final byte[] FILE = "file bytes".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] REQUEST =
            "{\"download_url\":\"https://files.test/x\",\"max_bytes\":100}".getBytes(StandardCharsets.UTF_8);

    private final List<UndertowIngressSidecar> sidecars = new ArrayList<>();

    @AfterEach
    void stop() {
        sidecars.forEach(UndertowIngressSidecar::close);
    }

    private InetSocketAddress start(FetchRemoteFileUseCase fetch) {
        UndertowIngressSidecar sidecar = UndertowIngressSidecar.start("127.0.0.1", 0, fetch);
        sidecars.add(sidecar);
        return sidecar.address();
    }

    @Test
    void bodies_that_arrive_after_their_headers_leave_no_descriptors_behind() throws IOException {
        InetSocketAddress address = start(command -> FILE);
        splitRequests(address, 20);
        long before = openDescriptors();

        splitRequests(address, 200);

        long deadline = System.nanoTime() + 20_000_000_000L;
        long after = openDescriptors();
        while (after > before + 16 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            after = openDescriptors();
        }
        assertTrue(after <= before + 16, "200 split requests left " + (after - before) + " more open descriptors");
    }

    @Test
    void an_error_in_a_fetch_is_the_coded_502_not_an_empty_500() {
        InetSocketAddress address = start(command -> new byte[bottomless(0)]);

        RawHttp.Response response = RawHttp.postJson(address, new String(REQUEST, StandardCharsets.UTF_8));

        assertEquals(502, response.status());
        assertEquals("{\"code\":\"FILE_INGRESS_UPSTREAM_FAILED\"}", response.text());
        assertEquals(
                200, RawHttp.send(address, "GET /healthz HTTP/1.1", new byte[0]).status());
    }

    private static int bottomless(int depth) {
        return bottomless(depth + 1) + 1;
    }

    /** Sends all headers first, then (after a complete request was answered) all bodies, and checks each answer. */
    private static void splitRequests(InetSocketAddress address, int n) throws IOException {
        List<Socket> open = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                Socket socket = new Socket(address.getAddress(), address.getPort());
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(20_000);
                open.add(socket);
                OutputStream out = socket.getOutputStream();
                out.write(("POST /fetch HTTP/1.1\r\nHost: 127.0.0.1:" + address.getPort()
                                + "\r\nContent-Type: application/json\r\nContent-Length: "
                                + REQUEST.length + "\r\nConnection: close\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            assertEquals(
                    200,
                    RawHttp.send(address, "GET /healthz HTTP/1.1", new byte[0]).status());
            for (Socket socket : open) {
                socket.getOutputStream().write(REQUEST);
                socket.getOutputStream().flush();
            }
            for (Socket socket : open) {
                ByteArrayOutputStream response = new ByteArrayOutputStream();
                socket.getInputStream().transferTo(response);
                String text = response.toString(StandardCharsets.ISO_8859_1);
                assertTrue(text.startsWith("HTTP/1.1 200"), text);
                byte[] raw = response.toByteArray();
                byte[] tail = Arrays.copyOfRange(raw, raw.length - FILE.length, raw.length);
                assertArrayEquals(FILE, tail);
            }
        } finally {
            for (Socket socket : open) {
                socket.close();
            }
        }
    }

    private static long openDescriptors() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
