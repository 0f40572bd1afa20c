package dev.serverfs.adapters.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code task.submit} parses its params once and refuses a request with several faults for the first in the
 * reference's order, as the MCP tool does (the same parse step and service); the Bridge names path failures as
 * reference §4.3 does. Nothing is created.
 */
class BridgeDispatcherTest {
    private final AgentFixture agent = new AgentFixture();
    private final BridgeDispatcher dispatcher = new BridgeDispatcher(agent.useCases);

    @AfterEach
    void close() {
        agent.close();
    }

    private record Case(String params, String code, String message) {}

    @Test
    void several_faults_are_refused_for_the_first_in_the_reference_order() {
        List<Case> cases = List.of(
                new Case(params("nope", "qoder", "bogus", "../x", "\"a\\u0001\"", "\"\""), "WORKDIR_NOT_FOUND", null),
                new Case(
                        params("docs", "qoder", "bogus", "../x", "\"a\\u0001\"", "\"\""),
                        "AGENT_RUNTIME_NOT_ALLOWED",
                        "qoder is not allowed for docs"),
                new Case(
                        params("docs", "fake", "bogus", "../x", "\"a\\u0001\"", "\"\""),
                        "AGENT_PROFILE_NOT_ALLOWED",
                        "unknown profile"),
                new Case(
                        params("docs", "fake", "review", "../x", "\"a\\u0001\"", "\"\""), "INVALID_WORKDIR_PATH", null),
                new Case(
                        params("docs", "fake", "review", "src", "\"a\\u0001\"", "\"\""),
                        "INVALID_REQUEST",
                        "correlation_id must not contain control characters"),
                new Case(
                        params("docs", "fake", "review", "src", "null", "\"\""),
                        "INVALID_REQUEST",
                        "idempotency_key must not be empty"));
        for (Case c : cases) {
            String request = "{\"protocol_version\":1,\"request_id\":\"r1\",\"method\":\"task.submit\",\"params\":"
                    + c.params() + "}";
            String response =
                    new String(dispatcher.respond(request.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
            assertTrue(response.contains("\"code\":\"" + c.code() + "\""), c + " → " + response);
            if (c.message() != null) {
                assertTrue(response.contains("\"message\":\"" + c.message() + "\""), response);
            }
        }
        assertEquals(0, agent.store.list(true).size(), "no task was created");
    }

    @Test
    void a_nul_in_the_starting_directory_is_invalid_workdir_path_as_the_reference_bridge_names_it() {
        // Reference §4.3: path normalisation (NUL, absolute, "..") → INVALID_WORKDIR_PATH; the message keeps the
        // workdir:path label of §2.0.
        String request = "{\"protocol_version\":1,\"request_id\":\"r1\",\"method\":\"task.submit\",\"params\":"
                + params("docs", "fake", "review", "a\\u0000b", "null", "null") + "}";
        String response =
                new String(dispatcher.respond(request.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        assertTrue(response.contains("\"code\":\"INVALID_WORKDIR_PATH\""), response);
        assertTrue(response.contains("\"message\":\"docs:a?b — path contains a NUL character\""), response);
        assertEquals(0, agent.store.list(true).size(), "no task was created");
    }

    private static String params(
            String workdir, String runtime, String profile, String path, String correlationId, String key) {
        return "{\"runtime\":\"" + runtime + "\",\"workdir\":\"" + workdir + "\",\"prompt\":\"p\",\"path\":\"" + path
                + "\",\"profile\":\"" + profile + "\",\"correlation_id\":" + correlationId + ",\"idempotency_key\":"
                + key + "}";
    }
}
