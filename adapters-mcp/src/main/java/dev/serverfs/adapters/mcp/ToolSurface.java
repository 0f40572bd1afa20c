package dev.serverfs.adapters.mcp;

/**
 * Which tool set a tool belongs to, and so when it is registered (CONTRACT.md §1, reference §1.5): filesystem
 * tools always; binary tools only when a workdir enables binary transfer; Agent tools only when delegation is
 * enabled and a workdir has an Agent mode.
 */
public enum ToolSurface {
    FILESYSTEM,
    BINARY,
    AGENT
}
