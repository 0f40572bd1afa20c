package dev.serverfs.bootstrap.logging;

import dev.serverfs.bootstrap.config.ConfigurationException;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import dev.serverfs.domain.workdir.AgentMode;
import dev.serverfs.domain.workdir.Workdir;
import java.io.PrintStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two start-up events every sub-command emits (contract reference §1.5): {@code startup} with counts and flags
 * only, and {@code startup_failed} with the reason, together with the stderr line and exit code 2.
 */
public final class StartupEvents {

    private static final Logger LOG = LoggerFactory.getLogger("dev.serverfs.startup");

    private StartupEvents() {}

    /**
     * Reports a configuration error: logs {@code startup_failed} (field {@code reason}), prints {@code ServerFS:
     * configuration error: <reason>} on stderr and returns {@link ServerFsProcess#EXIT_CONFIGURATION_ERROR}.
     */
    public static int configurationFailed(ConfigurationException error) {
        return configurationFailed(error.reason());
    }

    public static int configurationFailed(String reason) {
        LOG.atError().setMessage("startup_failed").addKeyValue("reason", reason).log();
        PrintStream err = System.err;
        err.println("ServerFS: configuration error: " + reason);
        err.flush();
        return ServerFsProcess.EXIT_CONFIGURATION_ERROR;
    }

    /** Logs {@code startup} with exactly the fields of reference §1.5: counts and flags, never globs or paths. */
    public static void started(ServerFsConfig config) {
        int readWrite = 0;
        int agentEnabled = 0;
        for (Workdir w : config.workdirs().all()) {
            if (w.readWrite()) {
                readWrite++;
            }
            if (w.policy().agentMode() != AgentMode.DISABLED) {
                agentEnabled++;
            }
        }
        ServerFsConfig.PolicySummary summary = config.policySummary();
        LOG.atInfo()
                .setMessage("startup")
                .addKeyValue("workdirs", config.workdirs().all().size())
                .addKeyValue("read_write_workdirs", readWrite)
                .addKeyValue("log_level", config.logLevel())
                .addKeyValue("global_allow_hidden", summary.globalAllowHidden())
                .addKeyValue("global_default_deny_enabled", summary.globalDefaultDenyEnabled())
                .addKeyValue("global_extra_deny_rule_count", summary.globalExtraDenyRuleCount())
                .addKeyValue("workdirs_with_policy_overrides", summary.workdirsWithPolicyOverrides())
                .addKeyValue("agent_bridge_enabled", config.agent().bridgeEnabled())
                .addKeyValue("file_ingress_enabled", config.fileIngress().enabled())
                .addKeyValue("agent_enabled_workdirs", agentEnabled)
                .log();
        if (config.workdirs().all().isEmpty()) {
            // Legal (every slot may be a disabled placeholder), but a new install that forgot WORKDIR_01_* serves
            // nothing.
            LOG.atWarn()
                    .setMessage("no_workdirs")
                    .addKeyValue(
                            "reason", "no WORKDIR_NN_ALIAS/WORKDIR_NN_PATH pair is set: the tools see no directory")
                    .log();
        }
        if (agentEnabled > 0 && config.agent().sandbox().allowUnconfined()) {
            // issue 25: the opt-out is never silent; said at every start of a process that runs providers
            LOG.atWarn()
                    .setMessage("agent_unconfined")
                    .addKeyValue(
                            "reason",
                            "SERVERFS_AGENT_ALLOW_UNCONFINED=true: codex and claude children see everything the server"
                                    + " sees")
                    .log();
        }
    }

    /**
     * {@code serve} hosting Codex or Claude children itself with no bearer token: the provider process shares this
     * host's network, so it (and a command a human approved for escalation) reaches {@code /mcp} on loopback and,
     * through it, every workdir (found by a probing session). Said at every start, like {@code agent_unconfined}.
     */
    public static void embeddedAgentWithoutToken(ServerFsConfig config) {
        if (!config.agent().embedded() || config.network().authToken().isPresent()) {
            return;
        }
        boolean providers = config.workdirs().all().stream()
                .filter(w -> w.policy().agentMode() != AgentMode.DISABLED)
                .anyMatch(w -> w.policy().agentRuntimes().contains("codex")
                        || w.policy().agentRuntimes().contains("claude"));
        if (providers) {
            LOG.atWarn()
                    .setMessage("agent_mcp_without_token")
                    .addKeyValue(
                            "reason",
                            "SERVERFS_AUTH_TOKEN is unset: a codex or claude provider process shares this host's"
                                    + " network and can call /mcp, and through it every workdir; set a token")
                    .log();
        }
    }
}
