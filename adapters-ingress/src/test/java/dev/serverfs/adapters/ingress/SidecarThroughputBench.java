package dev.serverfs.adapters.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.serverfs.application.port.out.HttpsResponse;
import dev.serverfs.application.service.FetchRemoteFileService;
import dev.serverfs.domain.ingress.HostPolicy;
import dev.serverfs.domain.ingress.IngressUrl;
import dev.serverfs.domain.ingress.SidecarPolicy;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Throughput of the whole ingress path for an 8 MiB file: MCP-side client → sidecar over loopback HTTP → HTTPS
 * fetcher → local HTTPS source, against a baseline of the same HTTPS fetcher called in-process (no sidecar hop), so
 * the ratio is the cost of the isolation: one extra loopback HTTP transfer, JSON request, and the second ceiling. Not a timed test (its name matches neither surefire pattern); run it explicitly:
 *
 * <pre>mvn -B -q -pl adapters-ingress -am verify -Dtest=SidecarThroughputBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 */
class SidecarThroughputBench {

    private static final int SIZE = 8 * 1024 * 1024;
    private static final int WARMUP = 5;
    private static final int RUNS = 21;

    @Test
    void eight_mebibytes_through_the_sidecar() throws Exception {
        byte[] file = new byte[SIZE];
        new Random(42).nextBytes(file);
        try (LocalHttpsServer source = new LocalHttpsServer(TestTls.TRUSTED).bytes("/8m.bin", file);
                ApacheHttpsFetcher fetcher =
                        TestResolution.fetcher(Duration.ofSeconds(30), source.port(), source.port());
                UndertowIngressSidecar sidecar = UndertowIngressSidecar.start(
                        "127.0.0.1",
                        0,
                        new FetchRemoteFileService(
                                new SidecarPolicy(HostPolicy.fromConfiguration("files.test", false), SIZE, 3),
                                fetcher,
                                Duration.ofSeconds(30),
                                Clock.systemUTC(),
                                UndertowIngressSidecar.MAX_CONCURRENT_FETCHES));
                SidecarFileIngress client = new SidecarFileIngress(
                        URI.create("http://127.0.0.1:" + sidecar.address().getPort() + "/fetch"),
                        Duration.ofSeconds(30))) {
            Callable<byte[]> viaSidecar = () -> client.fetch("https://files.test/8m.bin?sig=bench", SIZE);
            Callable<byte[]> baseline = () -> ((HttpsResponse.Body) fetcher.get(
                            IngressUrl.parse("https://files.test/8m.bin?sig=bench"), SIZE, Duration.ofSeconds(30)))
                    .bytes();
            assertArrayEquals(file, viaSidecar.call());
            assertArrayEquals(file, baseline.call());

            double[] medians = interleavedMedians(viaSidecar, baseline);
            double sidecarMs = medians[0];
            double baselineMs = medians[1];
            System.out.printf(
                    "ingress-bench cores=%d size=8MiB runs=%d sidecar_median_ms=%.1f sidecar_MiB_s=%.1f"
                            + " fetcher_only_median_ms=%.1f fetcher_only_MiB_s=%.1f ratio=%.2f%n",
                    Runtime.getRuntime().availableProcessors(),
                    RUNS,
                    sidecarMs,
                    8_000 / sidecarMs,
                    baselineMs,
                    8_000 / baselineMs,
                    sidecarMs / baselineMs);
        }
    }

    /** Alternates the two calls run by run, so a noisy shared machine slows both alike. */
    private static double[] interleavedMedians(Callable<byte[]> a, Callable<byte[]> b) throws Exception {
        for (int i = 0; i < WARMUP; i++) {
            a.call();
            b.call();
        }
        double[] msA = new double[RUNS];
        double[] msB = new double[RUNS];
        for (int i = 0; i < RUNS; i++) {
            msA[i] = timed(a);
            msB[i] = timed(b);
        }
        Arrays.sort(msA);
        Arrays.sort(msB);
        return new double[] {msA[RUNS / 2], msB[RUNS / 2]};
    }

    private static double timed(Callable<byte[]> call) throws Exception {
        long start = System.nanoTime();
        byte[] body = call.call();
        double ms = (System.nanoTime() - start) / 1e6;
        if (body.length != SIZE) {
            throw new AssertionError("short body");
        }
        return ms;
    }
}
