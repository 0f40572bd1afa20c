package dev.serverfs.adapters.ingress;

import dev.serverfs.application.port.out.FileIngress;
import dev.serverfs.application.port.out.FileIngressContract;
import dev.serverfs.application.service.FetchRemoteFileService;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** The {@link FileIngress} contract, run against the real client, the real sidecar and a local HTTPS source. */
class SidecarFileIngressContractIT extends FileIngressContract {

    private LocalHttpsServer upstream;
    private ApacheHttpsFetcher fetcher;
    private UndertowIngressSidecar sidecar;
    private SidecarFileIngress client;

    @Override
    protected FileIngress newIngress() {
        upstream = new LocalHttpsServer(TestTls.TRUSTED);
        fetcher = TestResolution.fetcher(Duration.ofSeconds(5), upstream.port(), upstream.port());
        sidecar = UndertowIngressSidecar.start(
                "127.0.0.1",
                0,
                new FetchRemoteFileService(
                        new SidecarPolicy(HostPolicy.fromConfiguration(ALLOWED_HOST, false), 8_388_608, 3),
                        fetcher,
                        Duration.ofSeconds(5),
                        Clock.systemUTC(),
                        UndertowIngressSidecar.MAX_CONCURRENT_FETCHES));
        client = new SidecarFileIngress(
                URI.create("http://127.0.0.1:" + sidecar.address().getPort() + "/fetch"), Duration.ofSeconds(10));
        return client;
    }

    @Override
    protected void publish(String path, byte[] body) {
        upstream.bytes(path, body);
    }

    @AfterEach
    void stop() {
        client.close();
        sidecar.close();
        fetcher.close();
        upstream.close();
    }
}
