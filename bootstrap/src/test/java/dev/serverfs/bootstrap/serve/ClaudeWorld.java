package dev.serverfs.bootstrap.serve;

import java.nio.file.Path;
import java.util.Map;

/**
 * One Claude test's {@link ProviderWorld}: its {@code HOME} holds Claude's settings and sessions, and {@code
 * ANTHROPIC_BASE_URL} points the CLI at this test's {@link MockMessagesApi}.
 */
final class ClaudeWorld {
    private ClaudeWorld() {}

    static ProviderWorld<MockMessagesApi> start(
            Path dir, Path bin, MockMessagesApi.Script script, Map<String, String> extra) throws Exception {
        MockMessagesApi mock = MockMessagesApi.start(script);
        return new ProviderWorld<>(
                dir,
                "claude",
                mock,
                Map.of(
                        "ANTHROPIC_BASE_URL", mock.baseUrl(),
                        "ANTHROPIC_API_KEY", "sk-ant-mock-key",
                        "SERVERFS_AGENT_CLAUDE_BIN", bin.toString()),
                extra);
    }

    /**
     * As {@link #start}, without an API key: the CLI uses the claude.ai login of its configuration directory, which
     * the test writes.
     */
    static ProviderWorld<MockMessagesApi> startLoggedIn(
            Path dir, Path bin, MockMessagesApi.Script script, Map<String, String> extra) throws Exception {
        MockMessagesApi mock = MockMessagesApi.start(script);
        return new ProviderWorld<>(
                dir,
                "claude",
                mock,
                Map.of("ANTHROPIC_BASE_URL", mock.baseUrl(), "SERVERFS_AGENT_CLAUDE_BIN", bin.toString()),
                extra);
    }
}
