package dev.serverfs.adapters.ingress;

import java.net.Proxy;
import java.net.Socket;
import java.time.Duration;
import org.apache.hc.client5.http.DnsResolver;
import org.apache.hc.client5.http.SchemePortResolver;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.DefaultHttpClientConnectionOperator;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.impl.routing.DefaultRoutePlanner;
import org.apache.hc.client5.http.io.HttpClientConnectionOperator;
import org.apache.hc.client5.http.ssl.TlsSocketStrategy;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.http.config.RegistryBuilder;
import org.apache.hc.core5.http.io.SocketConfig;
import org.apache.hc.core5.util.Timeout;

/**
 * Builds the HttpClient 5 instances of this module with the same hardening: no proxy of any kind (not even a
 * SOCKS proxy from JVM system properties), no redirect following, retries, cookies, authentication caching or
 * content decompression, bounded header sizes and the given connect/read timeout.
 */
final class HttpClients5 {

    private HttpClients5() {}

    static CloseableHttpClient build(
            Duration timeout, DnsResolver dns, TlsSocketStrategy tls, String scheme, int maxConnections) {
        Timeout t = atLeastOneMillisecond(timeout);
        var connections = new NoProxyConnectionManagerBuilder(scheme)
                .setDnsResolver(dns)
                .setTlsSocketStrategy(tls)
                .setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
                        .http1Config(Http1Config.custom()
                                .setMaxLineLength(16 * 1024)
                                .setMaxHeaderCount(200)
                                .build())
                        .build())
                .setDefaultConnectionConfig(ConnectionConfig.custom()
                        .setConnectTimeout(t)
                        .setSocketTimeout(t)
                        .build())
                .setDefaultTlsConfig(TlsConfig.custom().setHandshakeTimeout(t).build())
                .setDefaultSocketConfig(SocketConfig.custom().setSoTimeout(t).build())
                .setMaxConnTotal(maxConnections)
                .setMaxConnPerRoute(maxConnections)
                .build();
        return HttpClientBuilder.create()
                .setConnectionManager(connections)
                .setRoutePlanner(new DefaultRoutePlanner(DefaultSchemePortResolver.INSTANCE))
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setRedirectsEnabled(false)
                        .setContentCompressionEnabled(false)
                        .setAuthenticationEnabled(false)
                        .setExpectContinueEnabled(false)
                        .setProtocolUpgradeEnabled(false)
                        .setConnectionRequestTimeout(t)
                        .setResponseTimeout(t)
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .disableConnectionState()
                .disableDefaultUserAgent()
                .build();
    }

    /**
     * Sockets take their timeouts in whole milliseconds and read 0 as "wait forever", so a configured timeout below
     * 1 ms (the settings accept {@code 0.0001} seconds) would silently remove the bound: it becomes 1 ms instead.
     */
    static Timeout atLeastOneMillisecond(Duration timeout) {
        return timeout.compareTo(Duration.ofMillis(1)) < 0 ? Timeout.ofMilliseconds(1) : Timeout.of(timeout);
    }

    /** Connection manager whose sockets are created with {@link Proxy#NO_PROXY}; only {@code scheme} is known. */
    private static final class NoProxyConnectionManagerBuilder extends PoolingHttpClientConnectionManagerBuilder {
        private final String scheme;

        NoProxyConnectionManagerBuilder(String scheme) {
            this.scheme = scheme;
        }

        @Override
        protected HttpClientConnectionOperator createConnectionOperator(
                SchemePortResolver ports, DnsResolver dns, TlsSocketStrategy tls) {
            var registry = RegistryBuilder.<TlsSocketStrategy>create();
            if ("https".equals(scheme)) {
                registry.register("https", tls);
            }
            return new DefaultHttpClientConnectionOperator(
                    proxy -> new Socket(Proxy.NO_PROXY), ports, dns, registry.build());
        }
    }
}
