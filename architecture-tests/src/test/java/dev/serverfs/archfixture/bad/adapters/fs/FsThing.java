package dev.serverfs.archfixture.bad.adapters.fs;

import dev.serverfs.archfixture.bad.adapters.mcp.McpThing;

public final class FsThing {
    public Object peer() {
        return new McpThing();
    }
}
