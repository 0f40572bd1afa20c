package dev.serverfs.archfixture.good.bootstrap;

import dev.serverfs.archfixture.good.adapters.mcp.McpTool;
import dev.serverfs.archfixture.good.application.service.ReadFileService;
import java.time.Clock;

/** Bootstrap is where services are constructed and handed to adapters as in-ports. */
public final class Wiring {
    public Object wire() {
        return new McpTool().call(new ReadFileService(Clock.systemUTC()));
    }
}
