package dev.serverfs.bootstrap.ingress;

import dev.serverfs.adapters.ingress.ApacheHttpsFetcher;
import dev.serverfs.adapters.ingress.UndertowIngressSidecar;
import dev.serverfs.application.service.FetchRemoteFileService;
import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.Variables;
import dev.serverfs.bootstrap.launch.EarlyStart;
import dev.serverfs.bootstrap.launch.ShutdownRequest;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serverfs ingress [--env-file F]}: the file-ingress sidecar (v0.5 plan §6–§8, contract reference §8). Binds
 * {@code SERVERFS_HOST:SERVERFS_FILE_INGRESS_PORT} and serves until the process is stopped; exit 2 on a
 * configuration error, 1 when the address cannot be bound.
 */
public final class IngressCommand implements SubCommand {

    /** How long a stop may take (an in-flight fetch is cut by closing its client) before the JVM exits anyway. */
    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(20);

    @Override
    public String name() {
        return "ingress";
    }

    @Override
    public String description() {
        return "Run the file-ingress sidecar (POST /fetch, GET /healthz).";
    }

    @Override
    public Options options() {
        return new Options().addOption(EnvFileOption.option());
    }

    @Override
    public int run(CommandLine line) throws InterruptedException {
        EarlyStart.ingress();
        Logger log = LoggerFactory.getLogger("dev.serverfs.startup");
        IngressSettings settings;
        try {
            settings = IngressSettings.parse(Variables.load(System.getenv(), EnvFileOption.envFile(line)));
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(settings.logLevel());
        Running running;
        try {
            running = start(settings);
        } catch (RuntimeException e) {
            log.atError()
                    .setMessage("startup_failed")
                    .addKeyValue("role", "ingress")
                    .addKeyValue("reason", "cannot listen on the configured host and port")
                    .log();
            System.err.println("ServerFS: cannot listen on " + settings.host() + ":" + settings.port());
            return 1;
        }
        ShutdownRequest shutdown = ShutdownRequest.install(SHUTDOWN_GRACE);
        log.atInfo()
                .setMessage("startup")
                .addKeyValue("role", "ingress")
                .addKeyValue("port", running.sidecar().address().getPort())
                .addKeyValue(
                        "allowed_host_count",
                        settings.policy().hosts().exactHosts().size())
                .addKeyValue("openai_blob_hosts", settings.policy().hosts().openAiBlobHosts())
                .addKeyValue("max_bytes", settings.policy().maxBytes())
                .addKeyValue("max_redirects", settings.policy().maxRedirects())
                .log();
        try {
            shutdown.await();
        } finally {
            try {
                running.close();
            } catch (RuntimeException e) {
                log.atWarn().setMessage("shutdown_incomplete").setCause(e).log();
            } finally {
                log.atInfo()
                        .setMessage("shutdown")
                        .addKeyValue("role", "ingress")
                        .log();
                shutdown.stopped();
            }
        }
        return 0;
    }

    /**
     * Wires and starts the sidecar with the production fetcher. The fetch timeout bounds connecting and each read, and
     * also one whole fetch with all its redirects: serve's call, bounded by the same 30 s by default, would have given
     * up by then anyway.
     */
    static Running start(IngressSettings settings) {
        ApacheHttpsFetcher fetcher = ApacheHttpsFetcher.create(settings.fetchTimeout());
        try {
            UndertowIngressSidecar sidecar = UndertowIngressSidecar.start(
                    settings.host(),
                    settings.port(),
                    new FetchRemoteFileService(
                            settings.policy(),
                            fetcher,
                            settings.fetchTimeout(),
                            Clock.systemUTC(),
                            UndertowIngressSidecar.MAX_CONCURRENT_FETCHES),
                    settings.servedAs().map(Set::of).orElse(Set.of()));
            return new Running(sidecar, fetcher);
        } catch (RuntimeException e) {
            fetcher.close();
            throw e;
        }
    }

    /** A started sidecar; closing stops the listener and the fetcher. */
    record Running(UndertowIngressSidecar sidecar, ApacheHttpsFetcher fetcher) implements AutoCloseable {
        @Override
        public void close() {
            sidecar.close();
            fetcher.close();
        }
    }
}
