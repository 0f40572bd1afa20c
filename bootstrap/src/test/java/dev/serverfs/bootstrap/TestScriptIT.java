package dev.serverfs.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./test.sh}'s prerequisite check (issue 26) as a real child: on a {@code PATH} that links every host command
 * except the ones it checks, plus fakes of those a case provides, it names each missing piece in one line with how
 * to install it and exits non-zero within seconds, before Maven starts (the fake {@code mvn} records a start).
 */
class TestScriptIT {

    private static final Path SCRIPT = Path.of("..", "test.sh").toAbsolutePath().normalize();
    private static final Set<String> CHECKED = Set.of("mvn", "node", "npm", "rg", "bwrap", "git");
    private static final Duration BOUND = Duration.ofSeconds(20);
    private static final String CURRENT_NODE = "echo v22.11.0";
    /** The fake Maven only records that it started, and with which arguments. */
    private static final String RECORDING_MAVEN = "printf '%s' \"$*\" > \"$MAVEN_STARTED\"";

    @TempDir
    Path dir;

    private record Result(int exitCode, List<String> errLines, String mavenArgs) {}

    /** The fake PATH links to this machine's real commands: removed first, JUnit's clean-up has nothing to warn of. */
    @AfterEach
    void removeLinks() throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path link : files.filter(Files::isSymbolicLink).toList()) {
                Files.delete(link);
            }
        }
    }

    /** Runs {@code ./test.sh args} with JAVA_HOME set to this JDK and only {@code fakes} of the checked commands. */
    private Result run(Map<String, String> fakes, String... args) throws Exception {
        Path home = Files.createTempDirectory(dir, "run");
        Path bin = Files.createDirectories(home.resolve("bin"));
        for (String entry : System.getenv("PATH").split(File.pathSeparator)) {
            Path hostDir = Path.of(entry.isEmpty() ? "." : entry).toAbsolutePath();
            if (!Files.isDirectory(hostDir)) {
                continue;
            }
            try (Stream<Path> commands = Files.list(hostDir)) {
                for (Path command : commands.toList()) {
                    Path link = bin.resolve(command.getFileName().toString());
                    if (!CHECKED.contains(command.getFileName().toString())
                            && !Files.exists(link, LinkOption.NOFOLLOW_LINKS)
                            && Files.isRegularFile(command)
                            && Files.isExecutable(command)) {
                        Files.createSymbolicLink(link, command);
                    }
                }
            }
        }
        Path mavenStarted = home.resolve("maven-started");
        for (Map.Entry<String, String> f : fakes.entrySet()) {
            fake(bin, f.getKey(), f.getValue());
        }
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        builder.environment().put("PATH", bin.toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().put("MAVEN_STARTED", mavenStarted.toString());
        Path err = home.resolve("err.txt");
        builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                throw new AssertionError("./test.sh did not stop within " + BOUND);
            }
        } finally {
            process.destroyForcibly();
        }
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        return new Result(
                process.exitValue(),
                stderr.isEmpty() ? List.of() : stderr.lines().toList(),
                Files.exists(mavenStarted) ? Files.readString(mavenStarted) : null);
    }

    /** A command {@code name} whose body is {@code script}, ahead of the host's on the child's PATH. */
    private static void fake(Path bin, String name, String script) throws IOException {
        Path fake = bin.resolve(name);
        Files.writeString(fake, "#!/bin/sh\n" + script + "\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Working fakes of every checked command (a current Node.js, a recording Maven) but {@code absent}. */
    private static Map<String, String> everythingBut(String... absent) {
        Map<String, String> fakes = new HashMap<>(Map.of(
                "mvn",
                RECORDING_MAVEN,
                "node",
                CURRENT_NODE,
                "npm",
                "exit 0",
                "rg",
                "exit 0",
                "bwrap",
                "exit 0",
                "git",
                "exit 0"));
        for (String name : absent) {
            fakes.remove(name);
        }
        return fakes;
    }

    @Test
    void a_path_without_ripgrep_stops_before_maven_with_its_install_line() throws Exception {
        Result r = run(everythingBut("rg"));

        assertNotEquals(0, r.exitCode());
        assertEquals(
                List.of("ServerFS: ripgrep (rg) is needed by the search parity tests; install it "
                        + "(Debian: apt-get install ripgrep)."),
                r.errLines());
        assertNull(r.mavenArgs(), "Maven started");
    }

    @Test
    void every_missing_piece_gets_one_line_with_its_package() throws Exception {
        Result r = run(Map.of());

        assertNotEquals(0, r.exitCode());
        List<String> lines = r.errLines();
        assertEquals(5, lines.size(), String.join("\n", lines));
        List<String> packages = List.of("maven", "nodejs npm", "ripgrep", "bubblewrap", "git");
        for (int i = 0; i < packages.size(); i++) {
            assertTrue(lines.get(i).startsWith("ServerFS: "), lines.get(i));
            assertTrue(lines.get(i).contains("apt-get install " + packages.get(i)), lines.get(i));
        }
        assertTrue(lines.get(0).contains("Maven"), lines.get(0));
    }

    @Test
    void an_old_node_or_a_missing_npm_is_named() throws Exception {
        Map<String, String> oldNode = everythingBut();
        oldNode.put("node", "echo v18.19.0");
        Result old = run(oldNode);
        assertNotEquals(0, old.exitCode());
        assertEquals(1, old.errLines().size(), old.errLines().toString());
        assertTrue(old.errLines().getFirst().contains("Node.js 20 or newer with npm (found v18.19.0)"), old.toString());

        Result noNpm = run(everythingBut("npm"));
        assertNotEquals(0, noNpm.exitCode());
        assertEquals(1, noNpm.errLines().size(), noNpm.errLines().toString());
        assertTrue(noNpm.errLines().getFirst().contains("(Debian: apt-get install npm)"), noNpm.toString());
        assertNull(noNpm.mavenArgs(), "Maven started");
    }

    @Test
    void a_complete_machine_goes_straight_to_maven_with_the_extra_arguments() throws Exception {
        Result r = run(everythingBut(), "-pl", "bootstrap");

        assertEquals(0, r.exitCode(), r.errLines().toString());
        assertEquals(List.of(), r.errLines());
        assertEquals("-B -ntp verify -pl bootstrap", r.mavenArgs());
    }
}
