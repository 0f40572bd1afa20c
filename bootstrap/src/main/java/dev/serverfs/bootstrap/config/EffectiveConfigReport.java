package dev.serverfs.bootstrap.config;

import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirPolicy;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * The text {@code serverfs check-config} prints (CONTRACT.md §4): the effective policy per workdir as flags, limits
 * and counts. Never a host path, a secret, a URL or a deny glob itself.
 */
public final class EffectiveConfigReport {

    private EffectiveConfigReport() {}

    public static String render(ServerFsConfig config) {
        StringBuilder out = new StringBuilder();
        ServerFsConfig.Network net = config.network();
        ServerFsConfig.PolicySummary summary = config.policySummary();
        ServerFsConfig.Agent agent = config.agent();
        long readWrite =
                config.workdirs().all().stream().filter(Workdir::readWrite).count();
        out.append("ServerFS configuration OK\n");
        line(out, "log_level", config.logLevel());
        line(
                out,
                "network",
                "host=" + net.host() + " port=" + net.port() + " allowed_hosts="
                        + net.allowedHosts().size()
                        + " allowed_origins=" + net.allowedOrigins().size() + " auth_token="
                        + (net.authToken().isPresent() ? "set" : "unset"));
        line(
                out,
                "transport",
                "max_connections=" + net.maxConnections().map(String::valueOf).orElse("derived")
                        + " request_body_timeout=" + seconds(net.bodyTimeout())
                        + " request_body_min_bytes_per_second=" + net.bodyMinBytesPerSecond());
        line(out, "metrics", endpoint("serve", net.metrics()) + " " + endpoint("bridge", net.bridgeMetrics()));
        line(
                out,
                "global",
                "allow_hidden=" + summary.globalAllowHidden() + " default_deny="
                        + summary.globalDefaultDenyEnabled() + " extra_deny_globs="
                        + summary.globalExtraDenyRuleCount() + " workdirs_with_policy_overrides="
                        + summary.workdirsWithPolicyOverrides());
        line(
                out,
                "file_ingress",
                "enabled=" + config.fileIngress().enabled() + " timeout="
                        + seconds(config.fileIngress().timeout()));
        line(
                out,
                "agent",
                "bridge_enabled=" + agent.bridgeEnabled() + " embedded=" + agent.embedded() + " runtimes="
                        + list(agent.enabledRuntimes()) + " fake_runtime=" + agent.fakeRuntimeEnabled()
                        + " task_timeout=" + seconds(agent.taskTimeout()) + " interaction_timeout="
                        + seconds(agent.interactionTimeout()) + " max_active_tasks=" + agent.maxActiveTasks()
                        + " retention=" + agent.retention().toHours() + "h");
        line(out, "workdirs", config.workdirs().all().size() + " (read-write " + readWrite + ")");
        for (Workdir w : config.workdirs().all()) {
            WorkdirPolicy p = w.policy();
            out.append("  ")
                    .append(w.slotName())
                    .append(' ')
                    .append(w.alias().value())
                    .append(": ")
                    .append(w.access().wire())
                    .append(" allow_hidden=")
                    .append(p.allowHidden())
                    .append(" default_deny=")
                    .append(!p.disableDefaultDeny())
                    .append(" extra_deny_globs=")
                    .append(p.extraDenyGlobs().size())
                    .append(" max_read_bytes=")
                    .append(p.maxReadBytes())
                    .append(" max_read_lines=")
                    .append(p.maxReadLines())
                    .append(" max_write_bytes=")
                    .append(p.maxWriteBytes())
                    .append(" binary_transfer=")
                    .append(p.binaryTransferEnabled())
                    .append(" max_binary_transfer_bytes=")
                    .append(p.maxBinaryTransferBytes())
                    .append(" agent_mode=")
                    .append(p.agentMode().wire())
                    .append(" agent_runtimes=")
                    .append(list(p.agentRuntimes()))
                    .append('\n');
        }
        return out.toString();
    }

    /** A metrics listener as {@code name=host:port name_token=<scrapes need the token>}, or {@code name=off}. */
    private static String endpoint(String name, Optional<ServerFsConfig.MetricsEndpoint> endpoint) {
        return endpoint.map(e -> name + "=" + (e.host().contains(":") ? "[" + e.host() + "]" : e.host()) + ":"
                        + e.port() + " " + name + "_token=" + e.token().isPresent())
                .orElse(name + "=off");
    }

    private static void line(StringBuilder out, String key, String value) {
        out.append(key).append(": ").append(value).append('\n');
    }

    private static String list(Collection<String> items) {
        if (items.isEmpty()) {
            return "-";
        }
        StringJoiner joined = new StringJoiner(",");
        items.forEach(joined::add);
        return joined.toString();
    }

    private static String seconds(Duration d) {
        return d.toNanos() % 1_000_000_000L == 0 ? d.toSeconds() + "s" : (d.toMillis() / 1000.0) + "s";
    }
}
