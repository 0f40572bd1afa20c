package dev.serverfs.bootstrap.config;

import static dev.serverfs.bootstrap.config.Setting.Group.BUILD;
import static dev.serverfs.bootstrap.config.Setting.Group.DEPLOYMENT;
import static dev.serverfs.bootstrap.config.Setting.Group.LAUNCHER;
import static dev.serverfs.bootstrap.config.Setting.Group.RESERVED;

import java.util.List;

/**
 * The catalogue's names that ServerFS itself does not parse: what compose.yml and compose.agent.yml interpolate, what
 * the {@code ./serverfs} launcher and deploy/Dockerfile read, and the reference names of roles ServerFS does not have
 * (contract reference §9.3–§9.5, LATER ones included), known so that a near miss of any of them is refused as a typo.
 */
final class DeploymentSettings {

    static final List<Setting<?>> ALL = List.of(
            Setting.fillIn(
                    "OPENAI_TUNNEL_IMAGE",
                    DEPLOYMENT,
                    Style.text("image reference"),
                    "The official OpenAI tunnel-client image, pinned to a version (the reference uses tunnel-client"
                            + " v0.0.14)."),
            Setting.fillIn(
                    "CONTROL_PLANE_API_KEY",
                    DEPLOYMENT,
                    Style.text("text"),
                    "The tunnel's runtime key (Tunnels Read + Use); it never enters the ServerFS containers."),
            Setting.fillIn("CONTROL_PLANE_TUNNEL_ID", DEPLOYMENT, Style.text("text"), "The tunnel's id."),
            Setting.of(
                    "CONTROL_PLANE_BASE_URL",
                    DEPLOYMENT,
                    Style.text("URL"),
                    "",
                    "The tunnel control plane's base URL; empty: the tunnel client's own default."),
            Setting.of(
                    "MCP_STARTUP_WAIT_TIMEOUT",
                    DEPLOYMENT,
                    Style.text("duration"),
                    "60s",
                    "How long the tunnel client waits for serverfs-mcp at start."),
            Setting.of("TUNNEL_LOG_LEVEL", DEPLOYMENT, Style.text(""), "info", "The tunnel client's log level."),
            Setting.of("TUNNEL_LOG_FORMAT", DEPLOYMENT, Style.text(""), "json", "The tunnel client's log format."),
            Setting.of(
                    "HEALTH_LISTEN_ADDR",
                    DEPLOYMENT,
                    Style.text(""),
                    ":8080",
                    "The tunnel client's health listener inside its container (exposed, never published)."),
            Setting.of(
                    "SERVERFS_IMAGE",
                    DEPLOYMENT,
                    Style.text("image reference"),
                    "serverfs:local",
                    "The ServerFS image that compose builds and runs (pin a tag in production)."),
            Setting.of(
                    "SERVERFS_UID",
                    DEPLOYMENT,
                    Style.text("integer"),
                    "10001",
                    "The uid the ServerFS containers run as (with compose.agent.yml: the Bridge user's `id -u`)."),
            Setting.of(
                    "SERVERFS_GID",
                    DEPLOYMENT,
                    Style.text("integer"),
                    "10001",
                    "The gid the ServerFS containers run as (with compose.agent.yml: the Bridge user's `id -g`)."),
            Setting.of(
                    "SERVERFS_AOT_CACHE",
                    LAUNCHER,
                    Style.text("`false` turns it off"),
                    "true",
                    "Whether ./serverfs serve records and uses the JDK AOT cache of serve."),
            Setting.of(
                    "SERVERFS_JAR",
                    BUILD,
                    Style.text("`build`/`prebuilt`"),
                    "build",
                    "deploy/Dockerfile: build the jar in the image, or package bootstrap/target/serverfs.jar."),
            reserved("SERVERFS_AGENT_RESULT_SPOOL_THRESHOLD_BYTES", "The reference Bridge's result spool threshold."),
            reserved("SERVERFS_QODER_BIN", "The reference's Qoder runtime."),
            reserved("SERVERFS_QODER_PROBE_TIMEOUT_SECONDS", "The reference's Qoder runtime."),
            reserved("SERVERFS_JEV_API_KEY", "The reference's JEV integration."),
            reserved("SERVERFS_JEV_USE_PROXY", "The reference's JEV integration."),
            reserved("SERVERFS_FILE_INGRESS_SOCKET", "The reference sidecar's Unix socket."),
            reserved("SERVERFS_FILE_INGRESS_PARENT_GUARD", "The reference sidecar's parent guard."),
            reserved("SERVERFS_PROXY_HOST", "The reference's outbound proxy."),
            reserved("SERVERFS_PROXY_PORT", "The reference's outbound proxy."),
            reserved("SERVERFS_PROXY_USERNAME", "The reference's outbound proxy."),
            reserved("SERVERFS_PROXY_PASSWORD", "The reference's outbound proxy."),
            reserved("SERVERFS_OPENAI_TUNNEL_USE_PROXY", "The reference's outbound proxy."),
            reserved("SERVERFS_AGENT_USE_PROXY", "The reference's outbound proxy."),
            reserved("SERVERFS_DATA_HOME", "The reference's data directory."),
            reserved("SERVERFS_BRIDGE_PYTHON", "The reference Bridge's Python interpreter."));

    private DeploymentSettings() {}

    private static Setting<String> reserved(String name, String doc) {
        return Setting.of(name, RESERVED, Style.text("not read"), "", doc);
    }
}
