package dev.serverfs.adapters.ingress;

import java.io.Serial;
import java.net.UnknownHostException;

/**
 * Thrown by {@link ValidatingDnsResolver} inside HttpClient when a DNS answer contains a non-global address; an
 * {@link UnknownHostException} so that HttpClient propagates it without trying to connect.
 */
final class RefusedAddressException extends UnknownHostException {
    @Serial
    private static final long serialVersionUID = 1L;

    RefusedAddressException() {
        super("host resolves to a non-global address");
    }
}
