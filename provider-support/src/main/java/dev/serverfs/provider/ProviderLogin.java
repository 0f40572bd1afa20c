package dev.serverfs.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's provider login (Codex's {@code auth.json}, Claude's {@code .credentials.json}) as a provider child's
 * view gets it: a copy taken as the child starts, read-only, with the refresh token blanked ({@link
 * Format#forView}). Nothing in a view can change the operator's login, leave data in it for a task of another workdir,
 * put another account's token in, or rotate the refresh token every other view and the operator's own CLI rely on.
 *
 * <p>So the tokens are refreshed here, outside every view, the way the provider itself would refresh them but earlier
 * ({@link Format#due}: before they could run out during the task, {@link #MARGIN} included), and written back to the
 * operator's file as the provider writes it: whole, owner-only, by an atomic rename, and only when nobody changed the
 * file meanwhile (the operator's own CLI may refresh it too). A failed refresh changes nothing and is logged without
 * any detail of the login; the child starts with the tokens there are, and the provider reports the login error if
 * they ran out. A login that is not the provider's JSON is copied as it is, read-only still.
 */
public final class ProviderLogin {
    private static final Logger LOG = LoggerFactory.getLogger(ProviderLogin.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Larger than any login: beyond it the file is not read. */
    static final int MAX_LOGIN_BYTES = 1024 * 1024;
    /** The most of a token endpoint's answer that is read. */
    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    /** How long one refresh may take, connection included. */
    private static final Duration REFRESH_TIMEOUT = Duration.ofSeconds(30);
    /** One refresh at a time per login file in this process, so two starting children never spend one token twice. */
    private static final ConcurrentMap<Path, Object> LOCKS = new ConcurrentHashMap<>();

    /** How long tokens must outlast the task's deadline: its provider child may take that long to stop. */
    public static final Duration MARGIN = Duration.ofMinutes(10);

    /** Built on the first refresh: most servers never make one (an API key, or no login to refresh). */
    private static final class Http {
        static final HttpClient CLIENT = HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** A provider's login format: when and how its tokens are refreshed, and what a view may see of it. */
    public interface Format {
        /** The provider, for the log: {@code codex}, {@code claude}. */
        String provider();

        /** The refresh to make before a child starts when {@code login}'s tokens could run out before {@code until}. */
        Optional<Refresh> due(ObjectNode login, Instant until);

        /** {@code login} with a token endpoint's {@code answer} applied, or empty when the answer is unusable. */
        Optional<ObjectNode> refreshed(ObjectNode login, JsonNode answer, Instant now);

        /** What a view sees: {@code login} with its refresh token blanked, everything else as it is. */
        ObjectNode forView(ObjectNode login);
    }

    /** A refresh request: the token endpoint and the JSON body posted to it. */
    public record Refresh(URI endpoint, ObjectNode body) {
        public Refresh {
            Objects.requireNonNull(endpoint, "endpoint");
            Objects.requireNonNull(body, "body");
        }
    }

    private final Path file;
    private final Format format;
    private final Instant deadline;
    private final Clock clock;

    /** {@code deadline}: when the task the child runs times out; the child's tokens must last that long. */
    public ProviderLogin(Path file, Format format, Instant deadline, Clock clock) {
        this.file = Objects.requireNonNull(file, "file");
        this.format = Objects.requireNonNull(format, "format");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public ProviderLogin(Path file, Format format, Instant deadline) {
        this(file, format, deadline, Clock.systemUTC());
    }

    /** Where the provider reads its login: the same path in the view. */
    public Path file() {
        return file;
    }

    /**
     * The login a view gets, refreshed first when due; empty when the operator has none (no regular file at {@link
     * #file}, or one too large to be a login).
     */
    public Optional<byte[]> forView() {
        synchronized (LOCKS.computeIfAbsent(file, f -> new Object())) {
            Optional<byte[]> read = read();
            if (read.isEmpty()) {
                return read;
            }
            byte[] bytes = read.get();
            Optional<ObjectNode> login = parse(bytes);
            if (login.isEmpty()) {
                return read;
            }
            ObjectNode current = login.get();
            Instant now = clock.instant();
            Optional<Refresh> refresh = format.due(current, (deadline.isAfter(now) ? deadline : now).plus(MARGIN));
            if (refresh.isPresent()) {
                current = refresh(refresh.get(), current, bytes).orElse(current);
            }
            return Optional.of(bytes(format.forView(current)));
        }
    }

    /** {@code login} refreshed and written back; empty when the refresh failed or the file changed meanwhile. */
    private Optional<ObjectNode> refresh(Refresh refresh, ObjectNode login, byte[] before) {
        Optional<ObjectNode> refreshed;
        try {
            refreshed = post(refresh).flatMap(answer -> format.refreshed(login.deepCopy(), answer, clock.instant()));
        } catch (IOException e) {
            warn("unreachable");
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            warn("interrupted");
            return Optional.empty();
        }
        if (refreshed.isEmpty()) {
            warn("refused");
            return Optional.empty();
        }
        try {
            if (!write(before, bytes(refreshed.get()))) {
                // the operator's CLI (or another process) wrote it meanwhile: that login stands
                return read().flatMap(ProviderLogin::parse);
            }
        } catch (IOException e) {
            warn("not_written");
            return Optional.empty();
        }
        LOG.atInfo()
                .setMessage("provider_login_refreshed")
                .addKeyValue("provider", format.provider())
                .log();
        return refreshed;
    }

    /** The endpoint's answer when it is a 200 with a JSON object of bounded size; empty otherwise. */
    private static Optional<JsonNode> post(Refresh refresh) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(refresh.endpoint())
                .timeout(REFRESH_TIMEOUT)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(refresh.body())))
                .build();
        HttpResponse<InputStream> response = Http.CLIENT.send(request, HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            byte[] answer = body.readNBytes(MAX_ANSWER_BYTES + 1);
            if (response.statusCode() != 200 || answer.length > MAX_ANSWER_BYTES) {
                return Optional.empty();
            }
            return parse(answer).map(JsonNode.class::cast);
        }
    }

    private Optional<byte[]> read() {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_LOGIN_BYTES) {
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(file);
            return bytes.length > MAX_LOGIN_BYTES ? Optional.empty() : Optional.of(bytes);
        } catch (IOException e) { // gone, or not readable: no login to show
            return Optional.empty();
        }
    }

    /**
     * Replaces the login with {@code after} when it still holds {@code before}: a new owner-only file beside it,
     * renamed over it. False, and nothing written, when it changed meanwhile.
     */
    private boolean write(byte[] before, byte[] after) throws IOException {
        if (!Arrays.equals(read().orElse(null), before)) {
            return false;
        }
        Path target = file.toRealPath();
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(target, LinkOption.NOFOLLOW_LINKS);
        mode.retainAll(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE));
        Path next = Files.createTempFile(
                target.getParent(),
                "." + target.getFileName() + ".",
                ".tmp",
                PosixFilePermissions.asFileAttribute(mode));
        try {
            Files.write(next, after);
            try {
                Files.move(next, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("the login's directory cannot rename atomically", e);
            }
        } finally {
            Files.deleteIfExists(next);
        }
        return true;
    }

    private void warn(String reason) {
        LOG.atWarn()
                .setMessage("provider_login_refresh_failed")
                .addKeyValue("provider", format.provider())
                .addKeyValue("reason", reason)
                .log();
    }

    /**
     * The token endpoint: {@code fallback}, or the absolute {@code http}/{@code https} address in {@code environment}'s
     * {@code override} variable (the provider's own variable for it).
     */
    public static URI endpoint(Map<String, String> environment, String override, URI fallback) {
        try {
            URI uri = new URI(environment.getOrDefault(override, ""));
            return uri.isAbsolute() && Set.of("http", "https").contains(uri.getScheme()) ? uri : fallback;
        } catch (URISyntaxException e) {
            return fallback;
        }
    }

    /** When the JSON Web Token {@code jwt} runs out (its {@code exp} claim, unverified); empty when it says none. */
    public static Optional<Instant> expiry(String jwt) {
        String[] parts = jwt.split("\\.", -1);
        if (parts.length != 3) {
            return Optional.empty();
        }
        try {
            JsonNode exp =
                    JSON.readTree(Base64.getUrlDecoder().decode(parts[1])).path("exp");
            return exp.canConvertToLong() ? Optional.of(Instant.ofEpochSecond(exp.asLong())) : Optional.empty();
        } catch (IOException | IllegalArgumentException | DateTimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<ObjectNode> parse(byte[] bytes) {
        try {
            return JSON.readTree(bytes) instanceof ObjectNode object ? Optional.of(object) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** {@code node} as the providers write their login: indented. */
    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(node);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
