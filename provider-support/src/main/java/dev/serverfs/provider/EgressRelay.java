package dev.serverfs.provider;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The only way out of a provider child's network namespace (the view unshares the network): an HTTP proxy on a Unix
 * socket that ServerFS serves on the host and binds into the view, where {@link EgressForwarder} carries the child's
 * loopback connections to it. It takes one request per connection: {@code CONNECT host:port} (a tunnel, for
 * {@code https}) or an absolute-URI request ({@code GET http://host:port/...}, for plain {@code http}), and connects
 * only where its {@link EgressPolicy} admits; anything else is answered {@code 403} (refused), {@code 400} (not a
 * proxy request) or {@code 502} (the target did not answer). A forwarded plain request is sent on with {@code
 * Connection: close}, so every later byte of that connection goes to the same admitted target. Nothing is logged:
 * the targets a child asks for are its business, and a refusal is its answer. Bounded: a connection that sends no
 * request head within {@link #HEAD_TIMEOUT} is closed, and at most {@link #MAX_CONNECTIONS} are open at once.
 */
public final class EgressRelay implements AutoCloseable {
    /** The longest request head read (request line and headers). */
    static final int MAX_HEAD = 32 * 1024;
    /** How long connecting to an admitted target may take. */
    static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    /** How long a connection may take to send its request head; then it is closed. */
    static final Duration HEAD_TIMEOUT = Duration.ofSeconds(30);
    /** Connections open at once, of all its children together (one relay per workdir); one more is closed at once. */
    static final int MAX_CONNECTIONS = 512;

    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("serverfs-egress-deadlines").factory());

    private final ServerSocketChannel server;
    private final Path socket;
    private final EgressPolicy policy;
    private final Duration headTimeout;
    private final Semaphore connections;

    private EgressRelay(
            ServerSocketChannel server, Path socket, EgressPolicy policy, Duration headTimeout, int maxConnections) {
        this.server = server;
        this.socket = socket;
        this.policy = policy;
        this.headTimeout = headTimeout;
        this.connections = new Semaphore(maxConnections);
    }

    /** Listens on a new Unix socket at {@code socket} (its directory should be the server's alone). */
    public static EgressRelay open(Path socket, EgressPolicy policy) throws IOException {
        return open(socket, policy, HEAD_TIMEOUT, MAX_CONNECTIONS);
    }

    /** {@link #open(Path, EgressPolicy)} with other bounds (tests). */
    static EgressRelay open(Path socket, EgressPolicy policy, Duration headTimeout, int maxConnections)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
        } catch (IOException e) {
            server.close();
            throw e;
        }
        EgressRelay relay = new EgressRelay(server, socket, policy, headTimeout, maxConnections);
        Thread.ofVirtual().name("serverfs-egress-relay").start(relay::acceptLoop);
        return relay;
    }

    /** The Unix socket it listens on. */
    public Path socket() {
        return socket;
    }

    private void acceptLoop() {
        while (server.isOpen()) {
            try {
                SocketChannel client = server.accept();
                if (!connections.tryAcquire()) {
                    client.close();
                    continue;
                }
                Thread.ofVirtual().name("serverfs-egress").start(() -> {
                    try {
                        serve(client);
                    } finally {
                        connections.release();
                    }
                });
            } catch (IOException e) {
                if (!server.isOpen()) {
                    return;
                }
            }
        }
    }

    private void serve(SocketChannel client) {
        try (client) {
            InputStream in = Channels.newInputStream(client);
            OutputStream out = Channels.newOutputStream(client);
            ScheduledFuture<?> deadline =
                    DEADLINES.schedule(() -> closeQuietly(client), headTimeout.toMillis(), TimeUnit.MILLISECONDS);
            byte[] head;
            try {
                head = readHead(in);
            } finally {
                deadline.cancel(false);
            }
            if (head == null) {
                answer(out, "400 Bad Request");
                return;
            }
            int end = headEnd(head);
            String text = new String(head, 0, end, StandardCharsets.ISO_8859_1);
            byte[] rest = Arrays.copyOfRange(head, end + 4, head.length);
            String[] lines = text.split("\r\n", -1);
            String[] request = lines[0].split(" ");
            if (request.length != 3 || !request[2].startsWith("HTTP/")) {
                answer(out, "400 Bad Request");
                return;
            }
            if (request[0].equals("CONNECT")) {
                Optional<EgressPolicy.Entry> target = EgressPolicy.parse(request[1], false);
                if (target.isEmpty()) {
                    answer(out, "400 Bad Request");
                    return;
                }
                String host = target.get().host();
                int port = target.get().port();
                Optional<URI> via = policy.upstream().forTarget(true, host);
                try (Socket upstream =
                        via.isPresent() ? tunnelVia(out, via.get(), host, port) : connect(out, host, port)) {
                    if (upstream == null) {
                        return;
                    }
                    out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    upstream.getOutputStream().write(rest);
                    pipe(client, in, out, upstream);
                }
                return;
            }
            URI uri;
            try {
                uri = new URI(request[1]);
            } catch (URISyntaxException e) {
                answer(out, "400 Bad Request");
                return;
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                answer(out, "400 Bad Request");
                return;
            }
            int port = uri.getPort() == -1 ? 80 : uri.getPort();
            Optional<URI> via = policy.upstream().forTarget(false, uri.getHost());
            try (Socket upstream = via.isPresent()
                    ? (policy.admitsName(uri.getHost(), port) ? proxy(out, via.get()) : refuse(out))
                    : connect(out, uri.getHost(), port)) {
                if (upstream == null) {
                    return;
                }
                StringBuilder forwarded = new StringBuilder();
                String path = Optional.ofNullable(uri.getRawPath())
                                .filter(p -> !p.isEmpty())
                                .orElse("/")
                        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
                // through an upstream proxy the request keeps its absolute form, and gets that proxy's credentials
                forwarded.append(request[0]).append(' ').append(via.isPresent() ? request[1] : path);
                forwarded.append(' ').append(request[2]).append("\r\n");
                via.flatMap(EgressRelay::authorization)
                        .ifPresent(a -> forwarded
                                .append("Proxy-Authorization: ")
                                .append(a)
                                .append("\r\n"));
                for (int i = 1; i < lines.length; i++) {
                    String name = lines[i].split(":", 2)[0].strip().toLowerCase(Locale.ROOT);
                    if (!name.startsWith("proxy-") && !name.equals("connection") && !name.equals("keep-alive")) {
                        forwarded.append(lines[i]).append("\r\n");
                    }
                }
                forwarded.append("Connection: close\r\n\r\n");
                OutputStream up = upstream.getOutputStream();
                up.write(forwarded.toString().getBytes(StandardCharsets.ISO_8859_1));
                up.write(rest);
                pipe(client, in, out, upstream);
            }
        } catch (IOException e) {
            // the child or the target went away: nothing to tell
        }
    }

    /** Answers 403; null. */
    private static Socket refuse(OutputStream out) throws IOException {
        answer(out, "403 Forbidden");
        return null;
    }

    /** A connection to the upstream proxy {@code via}, or null after answering 502. */
    private static Socket proxy(OutputStream out, URI via) throws IOException {
        return open(out, new InetSocketAddress(via.getHost(), via.getPort() == -1 ? 80 : via.getPort()));
    }

    /** A connection to {@code to}, or null after answering 502. */
    private static Socket open(OutputStream out, InetSocketAddress to) throws IOException {
        Socket upstream = new Socket();
        try {
            upstream.connect(to, CONNECT_TIMEOUT_MILLIS);
            return upstream;
        } catch (IOException e) {
            upstream.close();
            answer(out, "502 Bad Gateway");
            return null;
        }
    }

    /**
     * A tunnel to {@code host:port} through the upstream proxy {@code via}, once the policy admits the name; null
     * after answering the client (403, or 502 when the proxy refuses or fails).
     */
    private Socket tunnelVia(OutputStream out, URI via, String host, int port) throws IOException {
        if (!policy.admitsName(host, port)) {
            return refuse(out);
        }
        Socket upstream = proxy(out, via);
        if (upstream == null) {
            return null;
        }
        String authority = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        StringBuilder connect = new StringBuilder("CONNECT ")
                .append(authority)
                .append(" HTTP/1.1\r\nHost: ")
                .append(authority)
                .append("\r\n");
        authorization(via)
                .ifPresent(
                        a -> connect.append("Proxy-Authorization: ").append(a).append("\r\n"));
        connect.append("\r\n");
        upstream.getOutputStream().write(connect.toString().getBytes(StandardCharsets.ISO_8859_1));
        // byte by byte up to the blank line: nothing of the tunnel itself may be consumed here
        StringBuilder head = new StringBuilder();
        InputStream in = upstream.getInputStream();
        while (head.length() < MAX_HEAD && !head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        String[] status = head.toString().split(" ", 3);
        if (!head.toString().endsWith("\r\n\r\n") || status.length < 2 || !status[1].startsWith("2")) {
            upstream.close();
            answer(out, "502 Bad Gateway");
            return null;
        }
        return upstream;
    }

    /** {@code Basic ...} of the proxy URL's user information, if it has any. */
    private static Optional<String> authorization(URI via) {
        return Optional.ofNullable(via.getUserInfo())
                .map(user ->
                        "Basic " + java.util.Base64.getEncoder().encodeToString(user.getBytes(StandardCharsets.UTF_8)));
    }

    /** The connected target, or null after answering the client with why not. */
    private Socket connect(OutputStream out, String host, int port) throws IOException {
        Optional<InetAddress> address = policy.admit(host, port);
        return address.isEmpty() ? refuse(out) : open(out, new InetSocketAddress(address.get(), port));
    }

    /**
     * Copies both ways until one direction ends, then closes both: a child that went away (cancelled, killed) must
     * not leave its model stream held open, nor a target that ended its answer a tunnel nobody closes.
     */
    static void pipe(SocketChannel client, InputStream in, OutputStream out, Socket upstream) throws IOException {
        InputStream upIn = upstream.getInputStream();
        OutputStream upOut = upstream.getOutputStream();
        Thread back = Thread.ofVirtual().name("serverfs-egress").start(() -> {
            try {
                upIn.transferTo(out);
            } catch (IOException e) {
                // closed
            } finally {
                closeQuietly(client, upstream);
            }
        });
        try {
            in.transferTo(upOut);
        } catch (IOException e) {
            // closed
        } finally {
            closeQuietly(client, upstream);
        }
        try {
            back.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(SocketChannel client) {
        try {
            client.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static void closeQuietly(SocketChannel client, Socket upstream) {
        try {
            upstream.close();
        } catch (IOException e) {
            // already closed
        }
        try {
            client.close();
        } catch (IOException e) {
            // already closed
        }
    }

    private static void answer(OutputStream out, String status) throws IOException {
        out.write(("HTTP/1.1 " + status + "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** The bytes read up to and past the head's blank line; null when the stream ends first or the head is too long. */
    private static byte[] readHead(InputStream in) throws IOException {
        byte[] buffer = new byte[MAX_HEAD];
        int length = 0;
        while (length < buffer.length) {
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) {
                return null;
            }
            // only what this read added can complete the blank line (a head trickled byte by byte is scanned once)
            int from = Math.max(0, length - 3);
            length += n;
            if (headEnd(buffer, from, length) >= 0) {
                return Arrays.copyOf(buffer, length);
            }
        }
        return null;
    }

    private static int headEnd(byte[] b) {
        return headEnd(b, 0, b.length);
    }

    /** Where the blank line ending the head starts in {@code b[from, to)}, or -1. */
    private static int headEnd(byte[] b, int from, int to) {
        for (int i = from; i + 3 < to; i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() throws IOException {
        server.close();
        Files.deleteIfExists(socket);
    }
}
