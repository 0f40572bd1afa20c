package dev.serverfs.adapters.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The counts the operator's metrics read: requests by era, refusals by reason, open sessions. */
class TransportStatsIT {

    private McpServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void requests_are_counted_by_era_refusals_by_reason_and_sessions_as_they_open_and_close() {
        server = McpServer.start(
                McpSettings.loopback(0, 4 * 1024, "9.8.7-test"),
                new Fixtures.RecordingAuditLog(),
                List.of(Fixtures.listWorkdirsTool()));
        TransportStats stats = server.stats();
        McpTestClient client = new McpTestClient(server.port());

        String session = client.initialize("2025-11-25");
        Map<String, String> inSession = Map.of("Mcp-Session-Id", session, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(
                200,
                client.post("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", inSession)
                        .statusCode());
        assertEquals(1, stats.openSessions());
        assertEquals(
                200,
                client.post("""
                                {"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{\
                                "io.modelcontextprotocol/protocolVersion":"2026-07-28",\
                                "io.modelcontextprotocol/clientCapabilities":{}}}}""", Map.of("MCP-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/list"))
                        .statusCode());
        assertEquals(
                413, client.post("{\"pad\":\"" + "x".repeat(8 * 1024) + "\"}").statusCode());

        assertEquals(2, stats.requests(TransportStats.Era.SESSION), "initialize and tools/list");
        assertEquals(1, stats.requests(TransportStats.Era.STATELESS));
        assertEquals(1, stats.refusals(TransportStats.Refusal.BODY_TOO_LARGE));
        for (TransportStats.Refusal other : TransportStats.Refusal.values()) {
            if (other != TransportStats.Refusal.BODY_TOO_LARGE) {
                assertEquals(0, stats.refusals(other), other.label());
            }
        }
        assertEquals(200, client.request("DELETE", "/mcp", inSession).statusCode());
        assertEquals(0, stats.openSessions());
    }
}
