package dev.serverfs.domain.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.json.CanonicalJson;
import dev.serverfs.domain.workdir.AgentMode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ExecutionManifestTest {

    @Test
    void manifest_is_canonical_json_with_its_sha256_and_frozen_limits() {
        ExecutionManifest m = new ExecutionManifest(
                "0.7.3",
                new RuntimeInfo("fake", true, Optional.of("phase-a"), true, true, true, true, InFlightRecovery.NONE),
                "docs",
                3,
                "src",
                TaskProfile.WORKSPACE_WRITE,
                false,
                AgentMode.WORKSPACE_WRITE,
                new TreeSet<>(List.of("fake", "codex")),
                AgentLimits.defaults()
                        .withLifecycle(
                                java.time.Duration.ofSeconds(60),
                                java.time.Duration.ofSeconds(30),
                                2,
                                java.time.Duration.ofHours(1)),
                Optional.empty(),
                Optional.of(new CorrelationId("c")),
                Optional.of(new IdempotencyKey("k")),
                Instant.parse("2026-01-01T02:00:00Z"));
        StoredManifest stored = m.toStored();
        assertEquals(CanonicalJson.sha256Hex(stored.json().getBytes(StandardCharsets.UTF_8)), stored.sha256());
        assertTrue(stored.json().startsWith("{\"advisor\":{"));
        assertTrue(stored.json().contains("\"task_timeout_seconds\":60"));
        assertTrue(stored.json().contains("\"interaction_timeout_seconds\":30"));
        assertTrue(stored.json().contains("\"max_active_tasks\":2"));
        assertTrue(stored.json().contains("\"retention_seconds\":3600"));
        assertTrue(stored.json().contains("\"deadline_at\":\"2026-01-01T02:00:00.000000Z\""));
        assertTrue(stored.json().contains("\"idempotency_key\":\"k\""));
        // policy_sha256 = sha256 of canonical {agent_mode, agent_runtimes (sorted), alias, read_only, slot}
        assertEquals(
                CanonicalJson.sha256Hex(
                        "{\"agent_mode\":\"workspace-write\",\"agent_runtimes\":[\"codex\",\"fake\"],\"alias\":\"docs\",\"read_only\":false,\"slot\":3}"
                                .getBytes(StandardCharsets.UTF_8)),
                m.policySha256());
    }
}
