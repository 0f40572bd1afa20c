package dev.serverfs.application.port.out;

import dev.serverfs.domain.ingress.IngressUrl;
import java.time.Duration;

/**
 * One HTTPS {@code GET} of an already validated URL by the ingress sidecar, following no redirects (v0.5 plan §7).
 * Implementations resolve the host themselves and refuse the whole DNS answer when any address is not global
 * ({@code FILE_INGRESS_ADDRESS_NOT_ALLOWED}, {@code FILE_INGRESS_DNS_FAILED}), connect only to those addresses
 * with TLS verified against {@link IngressUrl#host()}, bound connect and read time as well as the whole exchange, and
 * stream at most {@code limit + 1} bytes ({@code BINARY_PAYLOAD_TOO_LARGE}). Thread-safe.
 */
public interface HttpsFetcher {

    /**
     * Fetches {@code url}. Returns the body of a 200 response or the {@code Location} of a 301/302/303/307/308
     * response; fails with {@code FILE_INGRESS_UPSTREAM_FAILED} for any other status, a redirect without
     * {@code Location}, a connection or TLS failure, or when the exchange (connect, handshake, headers and the whole
     * body) has not ended within {@code timeLeft} (positive): then no part of the body is returned.
     */
    HttpsResponse get(IngressUrl url, long limit, Duration timeLeft);
}
