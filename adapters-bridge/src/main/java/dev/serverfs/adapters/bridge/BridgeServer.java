package dev.serverfs.adapters.bridge;

import dev.serverfs.application.port.in.AgentUseCases;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
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
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Bridge's AF_UNIX listener (reference §1.3, §4.1): no TCP. Every connection gets a virtual thread (at most
 * {@link Settings#maxConnections} at once; more wait in the listen backlog), its peer's {@code SO_PEERCRED} uid and
 * gid are compared with the allowed ones first ({@code PEER_NOT_AUTHORIZED} and nothing dispatched), then request
 * lines are answered one by one until the peer closes, stays idle too long or sends a line over 1 MiB ({@code
 * REQUEST_TOO_LARGE}, then closed).
 */
public final class BridgeServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BridgeServer.class);

    /**
     * @param allowedPeerUid the peer uid allowed to connect; empty → this process' uid (reference §4.1)
     * @param allowedPeerGid the peer gid allowed to connect; empty → this process' gid
     * @param idleTimeout how long a connection may wait for its next request line, and a response may take to write
     */
    public record Settings(
            Path socketPath,
            Optional<Integer> allowedPeerUid,
            Optional<Integer> allowedPeerGid,
            int maxConnections,
            Duration idleTimeout) {
        public Settings {
            Objects.requireNonNull(socketPath, "socketPath");
            Objects.requireNonNull(allowedPeerUid, "allowedPeerUid");
            Objects.requireNonNull(allowedPeerGid, "allowedPeerGid");
            Objects.requireNonNull(idleTimeout, "idleTimeout");
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

        /** 32 connections, 30 s idle. */
        public static Settings of(Path socketPath, Optional<Integer> allowedPeerUid, Optional<Integer> allowedPeerGid) {
            return new Settings(socketPath, allowedPeerUid, allowedPeerGid, 32, Duration.ofSeconds(30));
        }
    }

    private final Settings settings;
    private volatile BridgeDispatcher dispatcher;
    private final ServerSocketChannel listener;
    private final UserPrincipal allowedUser;
    private final GroupPrincipal allowedGroup;
    private final Semaphore slots;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    private BridgeServer(
            Settings settings, ServerSocketChannel listener, UserPrincipal allowedUser, GroupPrincipal allowedGroup) {
        this.settings = settings;
        this.listener = listener;
        this.allowedUser = allowedUser;
        this.allowedGroup = allowedGroup;
        this.slots = new Semaphore(settings.maxConnections());
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
            try {
                slots.acquire();
            } catch (InterruptedException e) {
                return;
            }
            SocketChannel channel;
            try {
                channel = listener.accept();
            } catch (IOException e) {
                slots.release();
                if (!(closed || e instanceof ClosedChannelException)) {
                    LOG.atWarn().addKeyValue("event", "bridge_accept_failed").log("bridge_accept_failed");
                }
                if (closed || e instanceof ClosedChannelException) {
                    return;
                }
                // E.g. out of descriptors: back off instead of spinning on the same failure.
                LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                continue;
            }
            open.add(channel);
            Thread.ofVirtual().name("serverfs-bridge-connection").start(() -> {
                try {
                    serve(channel);
                } finally {
                    open.remove(channel);
                    Watchdog.closeQuietly(channel);
                    slots.release();
                }
            });
        }
    }

    private void serve(SocketChannel channel) {
        try {
            LineReader lines = new LineReader(channel, BridgeCodec.MAX_LINE_BYTES);
            if (!authorized(channel)) {
                LOG.atWarn().addKeyValue("event", "bridge_peer_refused").log("bridge_peer_refused");
                // The first line is read and dropped unparsed, so that the refusal reaches a client still writing
                // it (answering first would break its pipe); nothing is decoded or dispatched.
                try {
                    nextLine(channel, lines);
                } catch (LineReader.LineTooLong ignored) {
                    // Refused either way.
                }
                write(channel, BridgeCodec.error(null, ErrorCode.PEER_NOT_AUTHORIZED, "peer is not authorized"));
                return;
            }
            while (!closed) {
                Optional<byte[]> line;
                try {
                    line = nextLine(channel, lines);
                } catch (LineReader.LineTooLong e) {
                    write(
                            channel,
                            BridgeCodec.error(null, ErrorCode.REQUEST_TOO_LARGE, "the request exceeds 1048576 bytes"));
                    return;
                }
                if (line.isEmpty()) {
                    return;
                }
                write(channel, dispatcher.respond(line.get()));
            }
        } catch (IOException e) {
            // The peer left, stayed idle past the deadline or the server is closing: nothing to answer.
        }
    }

    /** The next request line, bounded by the idle timeout. */
    private Optional<byte[]> nextLine(SocketChannel channel, LineReader lines) throws IOException {
        ScheduledFuture<?> idle = Watchdog.closeAfter(channel, settings.idleTimeout());
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
        ScheduledFuture<?> deadline = Watchdog.closeAfter(channel, settings.idleTimeout());
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
        open.forEach(Watchdog::closeQuietly);
        try {
            acceptor.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteQuietly(settings.socketPath());
    }

    private static void deleteQuietly(Path socket) {
        try {
            Files.deleteIfExists(socket);
        } catch (IOException ignored) {
            // A socket file left behind is stale and replaced by the next start.
        }
    }
}
