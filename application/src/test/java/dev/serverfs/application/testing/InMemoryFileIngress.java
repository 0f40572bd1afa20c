package dev.serverfs.application.testing;

import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.IngressUrl;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link FileIngress} without a network: files are published by normalised host and path (the query, such as a
 * blob signature, is ignored, as a file server would), the real URL and host policy of
 * the domain apply, and an optional hook runs in the middle of every fetch (for example to take a writer lease
 * while an upload is fetching, v0.5 plan §10). Passes {@code FileIngressContract}.
 */
public final class InMemoryFileIngress implements FileIngress {

    private final HostPolicy hosts;
    private final Map<String, byte[]> files = new ConcurrentHashMap<>();
    private final Map<String, ErrorCode> failures = new ConcurrentHashMap<>();
    private volatile Runnable duringFetch = () -> {};

    public InMemoryFileIngress(String allowedHosts) {
        this.hosts = HostPolicy.fromConfiguration(allowedHosts, false);
    }

    /** {@code url} answers with {@code body}. */
    public InMemoryFileIngress publish(String url, byte[] body) {
        files.put(key(IngressUrl.parse(url)), body.clone());
        return this;
    }

    /** {@code url} fails with {@code code}, as the sidecar would (e.g. {@code FILE_INGRESS_DNS_FAILED}). */
    public InMemoryFileIngress fail(String url, ErrorCode code) {
        failures.put(key(IngressUrl.parse(url)), code);
        return this;
    }

    /** Runs {@code hook} inside every fetch, after validation and before the bytes are returned. */
    public InMemoryFileIngress duringFetch(Runnable hook) {
        this.duringFetch = Objects.requireNonNull(hook, "hook");
        return this;
    }

    @Override
    public byte[] fetch(String downloadUrl, long maxBytes) {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive");
        }
        IngressUrl url = IngressUrl.parse(downloadUrl);
        hosts.requireAllowed(url);
        duringFetch.run();
        ErrorCode failure = failures.get(key(url));
        if (failure != null) {
            throw new ServerFsException(failure, "file ingress refused or failed to fetch the file");
        }
        byte[] body = files.get(key(url));
        if (body == null) {
            throw new ServerFsException(ErrorCode.FILE_INGRESS_UPSTREAM_FAILED, "upstream answered with an error");
        }
        if (body.length > maxBytes) {
            throw new ServerFsException(ErrorCode.BINARY_PAYLOAD_TOO_LARGE, "file exceeds the transfer limit");
        }
        return body.clone();
    }

    /** Host and path, without the query. */
    private static String key(IngressUrl url) {
        String target = url.pathAndQuery();
        int q = target.indexOf('?');
        return url.host() + (q < 0 ? target : target.substring(0, q));
    }
}
