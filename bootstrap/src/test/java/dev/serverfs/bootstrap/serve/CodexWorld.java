package dev.serverfs.bootstrap.serve;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One Codex test's {@link ProviderWorld}: besides {@code HOME}, a {@code CODEX_HOME} (under {@code target/}) whose {@code config.toml} points
 * the {@code mock} provider at this test's {@link MockResponsesApi} (no retries: Codex retries an unreachable
 * endpoint for ever, PROVIDERS.md (f)), a task timeout of 120 s, and the mock in {@code SERVERFS_AGENT_EGRESS_ALLOW}
 * (the egress relay is the child's only network).
 */
final class CodexWorld {
    private CodexWorld() {}

    static ProviderWorld<MockResponsesApi> start(
            Path dir, Path bin, MockResponsesApi.Script script, Map<String, String> extra) throws Exception {
        // Not beneath /tmp, where @TempDir is: Codex refuses to place its sandbox helper (codex-linux-sandbox) in a
        // CODEX_HOME under the temporary directory, and its own sandbox then cannot run a command at all.
        Path codexHome = Files.createTempDirectory(
                Files.createDirectories(Path.of("target", "codex-homes").toAbsolutePath()), "codex-home-");
        MockResponsesApi mock = MockResponsesApi.start(script);
        try {
            Files.writeString(
                    codexHome.resolve("config.toml"),
                    config(mock.baseUrl(), dir.resolve("proj")),
                    StandardCharsets.UTF_8);
        } catch (Exception e) {
            mock.close();
            throw e;
        }
        return new ProviderWorld<>(
                dir,
                "codex",
                mock,
                Map.of(
                        "CODEX_HOME",
                        codexHome.toString(),
                        "OPENAI_API_KEY",
                        "sk-mock-key",
                        "SERVERFS_AGENT_CODEX_BIN",
                        bin.toString(),
                        "SERVERFS_AGENT_TASK_TIMEOUT_SECONDS",
                        "120",
                        // the mock is named in config.toml, which ServerFS does not read: the relay must admit it
                        "SERVERFS_AGENT_EGRESS_ALLOW",
                        "127.0.0.1:" + URI.create(mock.baseUrl()).getPort()),
                extra);
    }

    /** PROVIDERS.md (a): the mock provider, no retries, no telemetry, no plugin sync (it would reach the network). */
    static String config(String baseUrl, Path proj) {
        return """
                model = "mock-model"
                model_provider = "mock"

                [model_providers.mock]
                name = "Local mock"
                base_url = "%s"
                wire_api = "responses"
                env_key = "OPENAI_API_KEY"
                request_max_retries = 0
                stream_max_retries = 0
                supports_websockets = false

                [features]
                plugins = false
                apps = false
                remote_plugin = false

                [analytics]
                enabled = false

                [feedback]
                enabled = false

                [projects."%s"]
                trust_level = "trusted"
                """.formatted(baseUrl, proj);
    }
}
