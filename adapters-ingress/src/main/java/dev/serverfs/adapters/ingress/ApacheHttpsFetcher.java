package dev.serverfs.adapters.ingress;

import dev.serverfs.application.port.out.HttpsFetcher;
import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.AddressPolicy;
import dev.serverfs.domain.ingress.IngressUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.ssl.DefaultClientTlsStrategy;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.HttpsSupport;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.io.CloseMode;

/**
 * The sidecar's HTTPS fetcher on Apache HttpClient 5 (v0.5 plan §7, contract reference §8): its own DNS
 * resolution through {@link ValidatingDnsResolver}, connections only to validated addresses, TLS with SNI and
 * hostname verification against the original host, no redirect following (the service re-validates each hop),
 * early {@code Content-Length} rejection and a streamed {@code limit + 1} ceiling. Besides the connect and per-read
 * timeouts, each exchange is cancelled (its connection closed) when the time it was given runs out.
 */
public final class ApacheHttpsFetcher implements HttpsFetcher, AutoCloseable {

    static final String USER_AGENT = "ServerFS-File-Ingress/0.5";
    private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
    private static final int CHUNK = 64 * 1024;
    private static final int MAX_CONNECTIONS = 64;

    private final CloseableHttpClient client;
    /** Fires the cancellation of exchanges that run out of time; one daemon thread, idle between deadlines. */
    private final ScheduledThreadPoolExecutor deadlines;

    ApacheHttpsFetcher(Duration timeout, SSLContext tls, HostLookup lookup, Predicate<InetAddress> addressAllowed) {
        Objects.requireNonNull(timeout, "timeout");
        var tlsStrategy = new DefaultClientTlsStrategy(
                Objects.requireNonNull(tls, "tls"),
                HostnameVerificationPolicy.BOTH,
                HttpsSupport.getDefaultHostnameVerifier());
        this.client = HttpClients5.build(
                timeout, new ValidatingDnsResolver(lookup, addressAllowed), tlsStrategy, "https", MAX_CONNECTIONS);
        this.deadlines = new ScheduledThreadPoolExecutor(
                1, Thread.ofPlatform().daemon().name("ingress-deadlines").factory());
        this.deadlines.setRemoveOnCancelPolicy(true);
    }

    /**
     * The production fetcher: the system resolver, every non-global address refused, the JDK's default trust
     * store, {@code timeout} for connecting and for each read.
     */
    public static ApacheHttpsFetcher create(Duration timeout) {
        try {
            return new ApacheHttpsFetcher(
                    timeout,
                    SSLContext.getDefault(),
                    HostLookup.system(),
                    address -> AddressPolicy.isGlobal(address.getAddress()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no default TLS context", e);
        }
    }

    @Override
    public HttpsResponse get(IngressUrl url, long limit, Duration timeLeft) {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be positive");
        }
        if (!timeLeft.isPositive()) {
            throw new IllegalArgumentException("timeLeft must be positive");
        }
        HttpGet request = new HttpGet(url.toUriString());
        request.setHeader(HttpHeaders.USER_AGENT, USER_AGENT);
        request.setHeader(HttpHeaders.ACCEPT, "*/*");
        request.setHeader(HttpHeaders.CONNECTION, "close");
        // Connect, handshake and each read have their own timeout, but an upstream that sends one byte just within it,
        // again and again, would hold this fetch (and a sidecar slot) forever: at timeLeft the exchange is cancelled,
        // which closes its connection and fails whatever read or connect is under way. Cancelling runs on a virtual
        // thread so that a slow close never delays the next deadline. A name lookup, which a cancel cannot stop, gives
        // up at the same time (ValidatingDnsResolver.DEADLINE).
        ScheduledFuture<?> deadline = deadlines.schedule(
                () -> Thread.startVirtualThread(request::cancel), timeLeft.toNanos(), TimeUnit.NANOSECONDS);
        long due = System.nanoTime() + timeLeft.toNanos();
        try (ClassicHttpResponse response = ScopedValue.where(ValidatingDnsResolver.DEADLINE, due)
                .call(() -> client.executeOpen(null, request, null))) {
            int status = response.getCode();
            if (status == 200) {
                byte[] body = readBounded(response, limit, request);
                if (request.isCancelled()) {
                    // A body cut by the deadline may look complete (a close-delimited body ends at any close).
                    throw upstream("upstream too slow");
                }
                return new HttpsResponse.Body(body);
            }
            request.cancel();
            if (REDIRECTS.contains(status)) {
                Header location = response.getFirstHeader(HttpHeaders.LOCATION);
                if (location == null
                        || location.getValue() == null
                        || location.getValue().isBlank()) {
                    throw upstream("redirect without Location");
                }
                return new HttpsResponse.Redirect(location.getValue().strip());
            }
            throw upstream("upstream answered with a non-success status");
        } catch (RefusedAddressException e) {
            throw new ServerFsException(
                    ErrorCode.FILE_INGRESS_ADDRESS_NOT_ALLOWED, "host resolves to a non-global address");
        } catch (UnknownHostException e) {
            throw new ServerFsException(ErrorCode.FILE_INGRESS_DNS_FAILED, "host did not resolve");
        } catch (IOException | UncheckedIOException e) {
            // Connect, TLS (including a certificate for another host), timeout, deadline and protocol failures alike.
            throw upstream("upstream connection failed");
        } finally {
            deadline.cancel(false);
        }
    }

    private static byte[] readBounded(ClassicHttpResponse response, long limit, HttpGet request) throws IOException {
        HttpEntity entity = response.getEntity();
        if (entity == null) {
            return new byte[0];
        }
        long declared = entity.getContentLength();
        if (declared > limit) {
            request.cancel();
            throw tooLarge();
        }
        // v0.5 plan §7 rule 10: never read more than limit + 1 bytes, whatever Content-Length said.
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 0), limit));
        byte[] buffer = new byte[CHUNK];
        try (InputStream in = entity.getContent()) {
            long total = 0;
            while (true) {
                int want = (int) Math.min(buffer.length, limit + 1 - total);
                int n = in.read(buffer, 0, want);
                if (n < 0) {
                    break;
                }
                total += n;
                if (total > limit) {
                    request.cancel();
                    throw tooLarge();
                }
                out.write(buffer, 0, n);
            }
        }
        return out.toByteArray();
    }

    private static ServerFsException tooLarge() {
        return new ServerFsException(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, "file exceeds the transfer limit");
    }

    private static ServerFsException upstream(String message) {
        return new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, message);
    }

    @Override
    public void close() {
        deadlines.shutdownNow();
        client.close(CloseMode.IMMEDIATE);
    }
}
