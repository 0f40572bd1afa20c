package dev.serverfs.adapters.mcp;

/**
 * Progress of a running tool call (MCP basic/utilities/progress): when the request carried a {@code progressToken},
 * each report goes to the client as a {@code notifications/progress} on the call's response stream before the
 * result; otherwise reports are dropped. {@code progress} must increase with each report; reports after the call
 * returned are dropped.
 */
@FunctionalInterface
public interface Progress {

    /** Reports nothing: the request asked for no progress. */
    Progress NONE = (progress, total, message) -> {};

    /** One report; {@code total} and {@code message} may be null when unknown. */
    void report(double progress, Double total, String message);
}
