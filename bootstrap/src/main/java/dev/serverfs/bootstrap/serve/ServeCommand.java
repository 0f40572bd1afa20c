package dev.serverfs.bootstrap.serve;

import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.config.ConfigLoader;
import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.EnvFileOption;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.EarlyStart;
import dev.serverfs.bootstrap.launch.ShutdownRequest;
import dev.serverfs.bootstrap.logging.ServerFsLogging;
import dev.serverfs.bootstrap.logging.StartupEvents;
import dev.serverfs.bootstrap.metrics.ProcessMetrics;
import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import java.io.IOException;
import java.time.Duration;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Options;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code serverfs serve [--env-file F]}: validates the configuration (exit 2 with {@code ServerFS: configuration
 * error: <reason>} otherwise), binds {@code SERVERFS_HOST:SERVERFS_PORT}, prints the MCP URL on stderr, and serves
 * until SIGTERM or SIGINT, then stops accepting and lets calls in flight finish.
 */
public final class ServeCommand implements SubCommand {

    /** Exit code when the listener can not be opened (e.g. the port is taken). */
    public static final int EXIT_CANNOT_LISTEN = 1;

    private static final Duration SHUTDOWN_GRACE = Duration.ofSeconds(20);

    @Override
    public String name() {
        return "serve";
    }

    @Override
    public String description() {
        return "Run the MCP server (Streamable HTTP at /mcp, health at /healthz).";
    }

    @Override
    public Options options() {
        return new Options().addOption(EnvFileOption.option());
    }

    @Override
    public int run(CommandLine line) throws InterruptedException {
        EarlyStart.serve();
        Logger log = LoggerFactory.getLogger("dev.serverfs.startup");
        ServerFsConfig config;
        try {
            config = ConfigLoader.loadFromProcess(EnvFileOption.envFile(line));
        } catch (ConfigurationException e) {
            return StartupEvents.configurationFailed(e);
        }
        ServerFsLogging.applyLevel(config.logLevel());
        ServeWiring serving;
        try {
            serving = ServeWiring.start(config);
        } catch (ServerFsException e) {
            if (e.code() == ErrorCode.AGENT_RESULT_STORAGE_ERROR) {
                // The embedded Agent's task store cannot be opened, e.g. it is corrupt (issue 24 item 7): refused
                // like a configuration error, the file left as it is.
                return StartupEvents.configurationFailed(e.code() + ": " + e.getMessage());
            }
            if (e.code() != ErrorCode.CONFIGURATION_ERROR && e.code() != ErrorCode.LOCK_PATH_UNSAFE) {
                throw e;
            }
            // Configuration validation checks these directories first; this is a change in between (issue 10 §10).
            return StartupEvents.configurationFailed(e.getMessage());
        } catch (RuntimeException e) {
            if (!(rootCause(e) instanceof IOException)) {
                throw e;
            }
            // Undertow wraps the BindException; the address is the operator's own setting, the cause is the OS's.
            String cause = rootCause(e).getMessage() == null
                    ? rootCause(e).getClass().getSimpleName()
                    : rootCause(e).getMessage();
            log.atError()
                    .setMessage("listen_failed")
                    .addKeyValue("reason", cause)
                    .log();
            String address = e instanceof ProcessMetrics.ListenFailed metrics
                    ? metrics.address()
                    : config.network().host() + ":" + config.network().port();
            System.err.println("ServerFS: cannot listen on " + address + ": " + cause);
            return EXIT_CANNOT_LISTEN;
        }
        ShutdownRequest shutdown = ShutdownRequest.install(SHUTDOWN_GRACE);
        StartupEvents.started(config);
        StartupEvents.embeddedAgentWithoutToken(config);
        log.atInfo()
                .setMessage("mcp_listening")
                .addKeyValue("port", serving.server().port())
                .addKeyValue("tools", serving.server().toolNames().size())
                .log();
        serving.metricsAddress()
                .ifPresent(a -> log.atInfo()
                        .setMessage("metrics_listening")
                        .addKeyValue("port", a.getPort())
                        .log());
        System.err.println("ServerFS listening on " + serving.server().endpoint());
        System.err.flush();
        try {
            shutdown.await();
        } finally {
            try {
                serving.close();
            } catch (RuntimeException e) {
                log.atWarn().setMessage("shutdown_incomplete").setCause(e).log();
            } finally {
                log.atInfo().setMessage("shutdown").log();
                shutdown.stopped();
            }
        }
        return 0;
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
