package dev.serverfs.archfixture.good.bootstrap;

import dev.serverfs.archfixture.good.adapters.mcp.McpTool;
import dev.serverfs.archfixture.good.application.service.ReadFileService;
import java.time.Clock;

/**
 * Bootstrap is where services are constructed and handed to adapters as in-ports, and the only place that reads the
 * environment and system properties.
 */
public final class Wiring {
    public Object wire() {
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        return new McpTool().call(new ReadFileService(Clock.systemUTC())) + home;
    }
}
