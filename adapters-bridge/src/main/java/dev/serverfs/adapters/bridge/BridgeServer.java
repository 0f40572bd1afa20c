package dev.serverfs.adapters.bridge;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.locks.LockSupport;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Bridge's AF_UNIX listener (reference §1.3, §4.1): no TCP. Each accepted peer's {@code SO_PEERCRED} uid and gid
 * are compared with the allowed ones first: a refused peer gets {@code PEER_NOT_AUTHORIZED} and is closed at once,
 * holding nothing. An allowed one gets a virtual thread that answers its request lines one by one until it closes,
 * sends no complete line within {@link Settings#requestTimeout} or sends one over 1 MiB ({@code REQUEST_TOO_LARGE},
 * then closed). At most {@link Settings#maxConnections} are open; a new peer over that closes the oldest one that
 * has been waiting for a request for over {@link #IDLE_GRACE}, so idle peers never hold up a real call (issue 24 item
 * 6) and a burst of real calls, each of which sends its request at once, never closes one of its own. Only while
 * every open connection is answering or within that grace does a new one wait.
 */
public final class BridgeServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BridgeServer.class);

    /**
     * How long a connection may wait for its request before a new peer may close it to make room: a real client
     * writes its request right after connecting, so only an idle or trickling peer stays waiting this long.
     */
    static final Duration IDLE_GRACE = Duration.ofSeconds(1);

    /**
     * @param allowedPeerUid the peer uid allowed to connect; empty → this process' uid (reference §4.1)
     * @param allowedPeerGid the peer gid allowed to connect; empty → this process' gid
     * @param requestTimeout how long a connection may take to send its next complete request line
     * @param writeTimeout how long a response may take to write
     */
    public record Settings(
            Path socketPath,
            Optional<Integer> allowedPeerUid,
            Optional<Integer> allowedPeerGid,
            int maxConnections,
            Duration requestTimeout,
            Duration writeTimeout) {
        public Settings {
            Objects.requireNonNull(socketPath, "socketPath");
            Objects.requireNonNull(allowedPeerUid, "allowedPeerUid");
            Objects.requireNonNull(allowedPeerGid, "allowedPeerGid");
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            Objects.requireNonNull(writeTimeout, "writeTimeout");
            if (!socketPath.isAbsolute()) {
                throw new IllegalArgumentException("the socket path must be absolute");
            }
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be positive");
            }
        }

        /**
         * Whether a peer of another identity shares the socket through its group: the socket, its directory and the
         * lock directory then get the group modes of reference §1.2 ({@code 0660}/{@code 0750}/{@code 0640}).
         */
        public boolean sharesGroup() {
            return allowedPeerUid.orElse(Posix.uid()) != Posix.uid()
                    || allowedPeerGid.orElse(Posix.gid()) != Posix.gid();
        }

        /** The group the peer shares the Bridge's runtime files through, when {@link #sharesGroup}. */
        public Optional<Integer> sharedGid() {
            return sharesGroup() ? Optional.of(allowedPeerGid.orElse(Posix.gid())) : Optional.empty();
        }

        /** 64 connections, 5 s to send a complete request line, 30 s to take a response. */
        public static Settings of(Path socketPath, Optional<Integer> allowedPeerUid, Optional<Integer> allowedPeerGid) {
            return new Settings(
                    socketPath, allowedPeerUid, allowedPeerGid, 64, Duration.ofSeconds(5), Duration.ofSeconds(30));
        }
    }

    private final Settings settings;
    private volatile BridgeDispatcher dispatcher;
    private final ServerSocketChannel listener;
    private final UserPrincipal allowedUser;
    private final GroupPrincipal allowedGroup;
    /** The open allowed connections, oldest first; guarded by itself, which is also waited on for a free place. */
    private final Set<Connection> open = new LinkedHashSet<>();

    private final BridgeStats stats = new BridgeStats(this::openCount);

    private final Thread acceptor;
    private volatile boolean closed;

    private BridgeServer(
            Settings settings, ServerSocketChannel listener, UserPrincipal allowedUser, GroupPrincipal allowedGroup) {
        this.settings = settings;
        this.listener = listener;
        this.allowedUser = allowedUser;
        this.allowedGroup = allowedGroup;
        this.acceptor = Thread.ofVirtual().name("serverfs-bridge-accept").unstarted(this::acceptLoop);
    }

    /**
     * Checks the socket path, binds, sets the socket's mode and starts accepting ({@link #bind} then {@link
     * #accept}).
     *
     * @throws ServerFsException {@code SOCKET_DIRECTORY_UNSAFE}, {@code SOCKET_PATH_IN_USE}, or {@code
     *     CONFIGURATION_ERROR} when the socket cannot be bound or given the peer's group
     */
    public static BridgeServer start(Settings settings, AgentUseCases agent) {
        BridgeServer server = bind(settings);
        server.accept(agent);
        return server;
    }

    /**
     * Checks the socket path, binds and sets the socket's mode, without accepting yet: the bound socket answers
     * every later start's probe, so a second Bridge refuses ({@code SOCKET_PATH_IN_USE}) before it touches the
     * task store. Connections wait in the listen backlog until {@link #accept}.
     *
     * @throws ServerFsException as {@link #start}
     */
    public static BridgeServer bind(Settings settings) {
        int ownUid = Posix.uid();
        int ownGid = Posix.gid();
        int peerUid = settings.allowedPeerUid().orElse(ownUid);
        int peerGid = settings.allowedPeerGid().orElse(ownGid);
        boolean sharedGroup = settings.sharesGroup();
        Path socket = settings.socketPath();
        SocketPath.prepare(socket, ownUid, sharedGroup);
        UserPrincipalLookupService principals = socket.getFileSystem().getUserPrincipalLookupService();
        ServerSocketChannel listener = null;
        try {
            // Numeric names resolve to those ids (the JDK's lookup falls back to the number); principals compare by id.
            UserPrincipal user = principals.lookupPrincipalByName(Integer.toString(peerUid));
            GroupPrincipal group = principals.lookupPrincipalByGroupName(Integer.toString(peerGid));
            listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            listener.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, SocketPath.socketMode(sharedGroup));
            if (peerGid != ownGid) {
                Files.getFileAttributeView(socket, PosixFileAttributeView.class).setGroup(group);
            }
            return new BridgeServer(settings, listener, user, group);
        } catch (IOException | RuntimeException e) {
            if (listener != null) {
                Watchdog.closeQuietly(listener);
                deleteQuietly(socket);
            }
            if (e instanceof ServerFsException sfe) {
                throw sfe;
            }
            throw new ServerFsException(ErrorCode.CONFIGURATION_ERROR, "the Bridge socket cannot be set up");
        }
    }

    /** Starts answering connections with {@code agent}'s use cases (once). */
    public synchronized void accept(AgentUseCases agent) {
        if (dispatcher != null) {
            throw new IllegalStateException("already accepting");
        }
        dispatcher = new BridgeDispatcher(agent);
        acceptor.start();
    }

    public Path socketPath() {
        return settings.socketPath();
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                if (closed || e instanceof ClosedChannelException) {
                    return;
                }
                LOG.atWarn().setMessage("bridge_accept_failed").log();
                // E.g. out of descriptors: back off instead of spinning on the same failure.
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                continue;
            }
            if (!authorized(channel)) {
                LOG.atWarn().setMessage("bridge_peer_refused").log();
                stats.refused(BridgeStats.Refusal.PEER_NOT_AUTHORIZED);
                refuse(channel);
                continue;
            }
            Connection connection = new Connection(channel);
            try {
                admit(connection);
            } catch (InterruptedException e) {
                Watchdog.closeQuietly(channel);
                return;
            }
            Thread.ofVirtual().name("serverfs-bridge-connection").start(() -> {
                try {
                    serve(connection);
                } finally {
                    leave(connection);
                    Watchdog.closeQuietly(channel);
                }
            });
        }
    }

    /**
     * Answers a refused peer {@code PEER_NOT_AUTHORIZED} and closes it, never waiting: what it already sent is read
     * and dropped unparsed (so its pending request does not turn our close into a reset before it reads the answer),
     * the answer fits the empty send buffer of a new socket, and nothing is decoded or dispatched.
     */
    private static void refuse(SocketChannel channel) {
        try {
            channel.configureBlocking(false);
            ByteBuffer drop = ByteBuffer.allocate(8192);
            for (int i = 0; i < 16 && channel.read(drop.clear()) > 0; i++) {
                // dropped
            }
            channel.write(
                    ByteBuffer.wrap(BridgeCodec.error(null, ErrorCode.PEER_NOT_AUTHORIZED, "peer is not authorized")));
        } catch (IOException e) {
            // The peer is gone already: nothing to tell it.
        } finally {
            Watchdog.closeQuietly(channel);
        }
    }

    /**
     * Makes room for {@code connection}: closes the oldest connection that has waited for a request past {@link
     * #IDLE_GRACE}; while none has, waits until one has or a connection ends.
     */
    private void admit(Connection connection) throws InterruptedException {
        synchronized (open) {
            while (open.size() >= settings.maxConnections()) {
                long now = System.nanoTime();
                Optional<Connection> waiting =
                        open.stream().filter(c -> !c.answering).min(Comparator.comparingLong(c -> c.waitingSince));
                if (waiting.isEmpty()) {
                    open.wait();
                    continue;
                }
                long idleFor = now - waiting.get().waitingSince;
                if (idleFor >= IDLE_GRACE.toNanos()) {
                    open.remove(waiting.get());
                    stats.refused(BridgeStats.Refusal.IDLE_CLOSED);
                    Watchdog.closeQuietly(waiting.get().channel);
                } else {
                    long left = IDLE_GRACE.toNanos() - idleFor;
                    open.wait(Math.max(1, left / 1_000_000), (int) (left % 1_000_000));
                }
            }
            open.add(connection);
        }
    }

    /** Marks {@code connection} answering a complete request; false when it was closed to make room meanwhile. */
    private boolean answering(Connection connection, boolean answering) {
        synchronized (open) {
            connection.answering = answering;
            connection.waitingSince = System.nanoTime();
            open.notifyAll();
            return open.contains(connection);
        }
    }

    /** What the listener saw since start (for the metrics of {@code serverfs bridge}). */
    public BridgeStats stats() {
        return stats;
    }

    private int openCount() {
        synchronized (open) {
            return open.size();
        }
    }

    private void leave(Connection connection) {
        synchronized (open) {
            open.remove(connection);
            open.notifyAll();
        }
    }

    private void serve(Connection connection) {
        SocketChannel channel = connection.channel;
        try {
            LineReader lines = new LineReader(channel, BridgeCodec.MAX_LINE_BYTES);
            while (!closed) {
                Optional<byte[]> line;
                try {
                    line = nextLine(channel, lines);
                } catch (LineReader.LineTooLong e) {
                    stats.refused(BridgeStats.Refusal.REQUEST_TOO_LARGE);
                    write(
                            channel,
                            BridgeCodec.error(null, ErrorCode.REQUEST_TOO_LARGE, "the request exceeds 1048576 bytes"));
                    return;
                }
                if (line.isEmpty() || !answering(connection, true)) {
                    return;
                }
                byte[] answer = dispatcher.respond(line.get());
                stats.answered();
                write(channel, answer);
                answering(connection, false);
            }
        } catch (IOException e) {
            // The peer left, sent no complete request in time or the server is closing: nothing to answer.
        }
    }

    /** The next request line, bounded by the request timeout. */
    private Optional<byte[]> nextLine(SocketChannel channel, LineReader lines) throws IOException {
        ScheduledFuture<?> idle = Watchdog.closeAfter(channel, settings.requestTimeout());
        try {
            return lines.next();
        } finally {
            idle.cancel(false);
        }
    }

    /** {@code SO_PEERCRED} (read by the JDK with getsockopt) against the allowed uid and gid; unavailable → refused. */
    private boolean authorized(SocketChannel channel) {
        try {
            UnixDomainPrincipal peer = channel.getOption(ExtendedSocketOptions.SO_PEERCRED);
            return peer != null && allowedUser.equals(peer.user()) && allowedGroup.equals(peer.group());
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private void write(SocketChannel channel, byte[] line) throws IOException {
        ScheduledFuture<?> deadline = Watchdog.closeAfter(channel, settings.writeTimeout());
        try {
            LineReader.writeFully(channel, line);
        } finally {
            deadline.cancel(false);
        }
    }

    /** Stops accepting, closes open connections and removes the socket file. In-flight calls finish unanswered. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Watchdog.closeQuietly(listener);
        acceptor.interrupt();
        synchronized (open) {
            open.forEach(c -> Watchdog.closeQuietly(c.channel));
        }
        if (acceptor.getState() != Thread.State.NEW) {
            // Not started when the Bridge stops before accepting (e.g. its task store cannot be opened).
            try {
                acceptor.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deleteQuietly(settings.socketPath());
    }

    /** An accepted allowed connection; {@code answering} from a complete request line until its answer is written. */
    private static final class Connection {
        final SocketChannel channel;
        boolean answering; // guarded by open
        long waitingSince = System.nanoTime(); // guarded by open; when it last began to wait for a request

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private static void deleteQuietly(Path socket) {
        try {
            Files.deleteIfExists(socket);
        } catch (IOException ignored) {
            // A socket file left behind is stale and replaced by the next start.
        }
    }
}
