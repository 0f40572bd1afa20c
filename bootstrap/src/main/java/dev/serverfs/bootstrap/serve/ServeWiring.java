package dev.serverfs.bootstrap.serve;

import dev.serverfs.adapters.mcp.McpServer;
import dev.serverfs.adapters.mcp.McpSettings;
import dev.serverfs.adapters.mcp.McpTool;
import dev.serverfs.adapters.mcp.Slf4jAuditLog;
import dev.serverfs.adapters.mcp.ToolSurface;
import dev.serverfs.adapters.mcp.tools.ListWorkdirsTool;
import dev.serverfs.application.port.out.AuditLog;
import dev.serverfs.application.service.ListWorkdirsService;
import dev.serverfs.bootstrap.ServerFsVersion;
import dev.serverfs.bootstrap.config.ServerFsConfig;
import java.time.Clock;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Composition of the {@code serve} process: configuration → use cases → MCP tools → {@link McpServer}. Every tool
 * of every surface is listed in {@link #tools}; the server itself leaves out the surfaces {@link #surfaces}
 * does not enable (CONTRACT.md §1, reference §1.5).
 */
public final class ServeWiring {

    private ServeWiring() {}

    /** Starts the MCP endpoint for this configuration. */
    public static McpServer start(ServerFsConfig config) {
        AuditLog audit = new Slf4jAuditLog();
        return McpServer.start(settings(config), audit, tools(config));
    }

    static McpSettings settings(ServerFsConfig config) {
        ServerFsConfig.Network network = config.network();
        return new McpSettings(
                network.host(),
                network.port(),
                network.allowedHosts(),
                network.allowedOrigins(),
                network.authToken(),
                config.workdirs().maxRequestBodyBytes(),
                ServerFsVersion.version(),
                surfaces(config),
                McpSettings.DEFAULT_SESSION_IDLE_TIMEOUT,
                Clock.systemUTC());
    }

    /** Filesystem tools always; binary tools when a workdir enables binary transfer; Agent tools when delegated. */
    static Set<ToolSurface> surfaces(ServerFsConfig config) {
        Set<ToolSurface> surfaces = EnumSet.of(ToolSurface.FILESYSTEM);
        if (config.workdirs().anyBinaryTransfer()) {
            surfaces.add(ToolSurface.BINARY);
        }
        if (config.agent().bridgeEnabled() && config.workdirs().anyAgentEnabled()) {
            surfaces.add(ToolSurface.AGENT);
        }
        return surfaces;
    }

    /** Every tool, of every surface: add new tools here (the server filters by surface). */
    static List<McpTool> tools(ServerFsConfig config) {
        return List.of(new ListWorkdirsTool(new ListWorkdirsService(config.workdirs())));
    }
}
