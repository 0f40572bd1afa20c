package dev.serverfs.adapters.mcp;

import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Everything the MCP endpoint needs from configuration (CONTRACT.md §4, reference §1.4): bind address, the Host
 * and Origin allow-lists, the optional bearer token, the request-body limit (see
 * {@code Workdirs.maxRequestBodyBytes()}), the version {@code serverInfo} reports, the enabled tool surfaces, the
 * idle lifetime of a session measured on {@code clock}, the most sessions open at once, the most request-body
 * bytes held in memory across all requests at once, the most bytes of large answers held for clients that have not
 * taken them yet, and the connection, body-deadline and answer-deadline bounds. {@link #toString()} never shows the token.
 */
public record McpSettings(
        String host,
        int port,
        Set<String> allowedHosts,
        Set<String> allowedOrigins,
        Optional<String> authToken,
        long maxRequestBodyBytes,
        String serverVersion,
        Set<ToolSurface> surfaces,
        Duration sessionIdleTimeout,
        Clock clock,
        int maxSessions,
        long maxBodyBytesInFlight,
        long maxResponseBytesInFlight,
        TransportLimits transport) {

    /** A session unused this long is forgotten; its client gets 404 and starts a new one (MCP lifecycle). */
    public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofHours(1);

    /**
     * Sessions are small; the cap only stops a flood of {@code initialize} from growing the table without end (a full
     * table makes room first from never-used sessions, see {@code McpSessions}).
     */
    public static final int DEFAULT_MAX_SESSIONS = 10_000;

    /**
     * The defaults for the session cap, the body and answer budgets ({@link #defaultBodyBudget}, {@link
     * #defaultResponseBudget}) and the transport.
     */
    public McpSettings(
            String host,
            int port,
            Set<String> allowedHosts,
            Set<String> allowedOrigins,
            Optional<String> authToken,
            long maxRequestBodyBytes,
            String serverVersion,
            Set<ToolSurface> surfaces,
            Duration sessionIdleTimeout,
            Clock clock) {
        this(
                host,
                port,
                allowedHosts,
                allowedOrigins,
                authToken,
                maxRequestBodyBytes,
                serverVersion,
                surfaces,
                sessionIdleTimeout,
                clock,
                DEFAULT_MAX_SESSIONS,
                defaultBodyBudget(maxRequestBodyBytes, Runtime.getRuntime().maxMemory()),
                defaultResponseBudget(maxRequestBodyBytes, Runtime.getRuntime().maxMemory()),
                TransportLimits.defaults());
    }

    public McpSettings {
        Objects.requireNonNull(host, "host");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port must be 0..65535");
        }
        allowedHosts = Set.copyOf(allowedHosts);
        allowedOrigins = Set.copyOf(allowedOrigins);
        Objects.requireNonNull(authToken, "authToken");
        if (authToken.isPresent() && authToken.get().isEmpty()) {
            throw new IllegalArgumentException("an auth token must not be empty");
        }
        if (maxRequestBodyBytes <= 0) {
            throw new IllegalArgumentException("maxRequestBodyBytes must be positive");
        }
        Objects.requireNonNull(serverVersion, "serverVersion");
        surfaces = surfaces.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(surfaces));
        Objects.requireNonNull(sessionIdleTimeout, "sessionIdleTimeout");
        if (sessionIdleTimeout.isNegative() || sessionIdleTimeout.isZero()) {
            throw new IllegalArgumentException("sessionIdleTimeout must be positive");
        }
        Objects.requireNonNull(clock, "clock");
        if (maxSessions <= 0) {
            throw new IllegalArgumentException("maxSessions must be positive");
        }
        if (maxBodyBytesInFlight < maxRequestBodyBytes) {
            throw new IllegalArgumentException("maxBodyBytesInFlight must hold at least one largest request body");
        }
        if (maxResponseBytesInFlight <= 0) {
            throw new IllegalArgumentException("maxResponseBytesInFlight must be positive");
        }
        Objects.requireNonNull(transport, "transport");
    }

    /**
     * An eighth of the heap for request bodies in flight, and never less than one largest body: a body is held
     * about three times over while it is handled (its bytes, the parsed tree, decoded data), so all bodies together
     * stay well within the heap whatever the number of concurrent uploads.
     */
    static long defaultBodyBudget(long maxRequestBodyBytes, long maxHeapBytes) {
        return Math.max(maxRequestBodyBytes, maxHeapBytes / 8);
    }

    /**
     * A quarter of the heap for answers written but not yet taken by their clients, and never less than one largest
     * answer (a download as large as the largest request body): beside the bodies' eighth, whatever clients leave
     * unread stays well within the heap.
     */
    static long defaultResponseBudget(long maxRequestBodyBytes, long maxHeapBytes) {
        return Math.max(maxRequestBodyBytes, maxHeapBytes / 4);
    }

    /** Loopback defaults for tests and tools: no extra hosts or origins, no token, filesystem tools only. */
    public static McpSettings loopback(int port, long maxRequestBodyBytes, String serverVersion) {
        return new McpSettings(
                "127.0.0.1",
                port,
                Set.of(),
                Set.of(),
                Optional.empty(),
                maxRequestBodyBytes,
                serverVersion,
                Set.of(ToolSurface.FILESYSTEM),
                DEFAULT_SESSION_IDLE_TIMEOUT,
                Clock.systemUTC());
    }

    public McpSettings withAuthToken(String token) {
        return copy(c -> c.authToken = Optional.of(token));
    }

    public McpSettings withAllowLists(Set<String> hosts, Set<String> origins) {
        return copy(c -> {
            c.allowedHosts = hosts;
            c.allowedOrigins = origins;
        });
    }

    public McpSettings withSessions(Duration idleTimeout, Clock sessionClock) {
        return copy(c -> {
            c.sessionIdleTimeout = idleTimeout;
            c.clock = sessionClock;
        });
    }

    public McpSettings withSurfaces(Set<ToolSurface> enabled) {
        return copy(c -> c.surfaces = enabled);
    }

    /** The same settings with at most {@code sessions} open sessions and {@code bodyBytes} of bodies in flight. */
    public McpSettings withCapacity(int sessions, long bodyBytes) {
        return copy(c -> {
            c.maxSessions = sessions;
            c.maxBodyBytesInFlight = bodyBytes;
        });
    }

    /** The same settings with these connection and request-body bounds. */
    public McpSettings withTransport(TransportLimits limits) {
        return copy(c -> c.transport = limits);
    }

    /** The same settings with at most {@code bytes} of large answers held for clients that have not taken them. */
    public McpSettings withResponseBudget(long bytes) {
        return copy(c -> c.maxResponseBytesInFlight = bytes);
    }

    /** The one copy step behind every wither: these settings with the fields {@code change} sets, validated again. */
    private McpSettings copy(Consumer<Copy> change) {
        Copy c = new Copy(this);
        change.accept(c);
        return new McpSettings(
                c.host,
                c.port,
                c.allowedHosts,
                c.allowedOrigins,
                c.authToken,
                c.maxRequestBodyBytes,
                c.serverVersion,
                c.surfaces,
                c.sessionIdleTimeout,
                c.clock,
                c.maxSessions,
                c.maxBodyBytesInFlight,
                c.maxResponseBytesInFlight,
                c.transport);
    }

    /** The fields of one settings record, changed in place by a wither before the copy is built. */
    private static final class Copy {
        String host;
        int port;
        Set<String> allowedHosts;
        Set<String> allowedOrigins;
        Optional<String> authToken;
        long maxRequestBodyBytes;
        String serverVersion;
        Set<ToolSurface> surfaces;
        Duration sessionIdleTimeout;
        Clock clock;
        int maxSessions;
        long maxBodyBytesInFlight;
        long maxResponseBytesInFlight;
        TransportLimits transport;

        Copy(McpSettings from) {
            host = from.host;
            port = from.port;
            allowedHosts = from.allowedHosts;
            allowedOrigins = from.allowedOrigins;
            authToken = from.authToken;
            maxRequestBodyBytes = from.maxRequestBodyBytes;
            serverVersion = from.serverVersion;
            surfaces = from.surfaces;
            sessionIdleTimeout = from.sessionIdleTimeout;
            clock = from.clock;
            maxSessions = from.maxSessions;
            maxBodyBytesInFlight = from.maxBodyBytesInFlight;
            maxResponseBytesInFlight = from.maxResponseBytesInFlight;
            transport = from.transport;
        }
    }

    @Override
    public String toString() {
        return "McpSettings[host=" + host + ", port=" + port + ", allowedHosts=" + allowedHosts.size()
                + ", allowedOrigins=" + allowedOrigins.size() + ", token=" + (authToken.isPresent() ? "set" : "unset")
                + ", maxRequestBodyBytes=" + maxRequestBodyBytes + ", surfaces=" + surfaces + ", maxSessions="
                + maxSessions
                + ", maxBodyBytesInFlight=" + maxBodyBytesInFlight + ", maxResponseBytesInFlight="
                + maxResponseBytesInFlight + ", transport=" + transport + "]";
    }
}
