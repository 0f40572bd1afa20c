package dev.serverfs.archfixture.bad.adapters.mcp;

public final class McpThing {}
