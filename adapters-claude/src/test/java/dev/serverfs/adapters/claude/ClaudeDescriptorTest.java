package dev.serverfs.adapters.claude;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.serverfs.provider.AgentRuntimeDescriptor;
import dev.serverfs.provider.ProviderSandbox;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClaudeDescriptorTest {

    @Test
    void the_descriptor_builds_claude_from_its_resolved_settings_and_the_hosts_environment() {
        Map<String, String> environment = Map.of("PATH", "/usr/bin", "HOME", "/home/me");
        AgentRuntimeDescriptor.Values values = new AgentRuntimeDescriptor.Values(Map.of(
                "SERVERFS_AGENT_CLAUDE_BIN", "/opt/claude/bin/claude", "SERVERFS_CLAUDE_PROBE_TIMEOUT_SECONDS", 2));
        ClaudeAgentRuntime runtime = (ClaudeAgentRuntime) ClaudeAgentRuntime.DESCRIPTOR
                .factory()
                .create(values, new AgentRuntimeDescriptor.Host(environment, ProviderSandbox.unconfined(), List.of()));

        assertEquals(ClaudeAgentRuntime.NAME, runtime.name());
        assertEquals(
                new ClaudeSettings("/opt/claude/bin/claude", Duration.ofSeconds(2), environment), runtime.settings());
    }
}
