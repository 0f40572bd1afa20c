package dev.serverfs.bootstrap.serve;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * One Claude test's {@link ProviderWorld}: its {@code HOME} holds Claude's settings and sessions, and {@code
 * ANTHROPIC_BASE_URL} points the CLI at this test's {@link MockMessagesApi}.
 */
final class ClaudeWorld {
    private ClaudeWorld() {}

    static ProviderWorld<MockMessagesApi> start(
            Path dir, Path bin, MockMessagesApi.Script script, Map<String, String> extra) throws Exception {
        return start(dir, bin, script, extra, Map.of("ANTHROPIC_API_KEY", "sk-ant-mock-key"));
    }

    /**
     * As {@link #start}, without an API key: the CLI uses the claude.ai login of its configuration directory, which
     * the test writes.
     */
    static ProviderWorld<MockMessagesApi> startLoggedIn(
            Path dir, Path bin, MockMessagesApi.Script script, Map<String, String> extra) throws Exception {
        return start(dir, bin, script, extra, Map.of());
    }

    private static ProviderWorld<MockMessagesApi> start(
            Path dir, Path bin, MockMessagesApi.Script script, Map<String, String> extra, Map<String, String> key)
            throws Exception {
        MockMessagesApi mock = MockMessagesApi.start(script);
        Map<String, String> provider = new HashMap<>(key);
        provider.put("ANTHROPIC_BASE_URL", mock.baseUrl());
        provider.put("SERVERFS_AGENT_CLAUDE_BIN", bin.toString());
        return new ProviderWorld<>(dir, "claude", mock, provider, extra);
    }
}
