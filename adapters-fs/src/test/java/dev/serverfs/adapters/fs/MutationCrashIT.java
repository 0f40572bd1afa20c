package dev.serverfs.adapters.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.serverfs.application.port.in.FindFilesUseCase.FindFilesQuery;
import dev.serverfs.application.port.in.ListDirectoryUseCase.Entry;
import dev.serverfs.application.port.in.ListDirectoryUseCase.ListDirectoryQuery;
import dev.serverfs.application.service.FindFilesService;
import dev.serverfs.application.service.ListDirectoryService;
import dev.serverfs.domain.workdir.Access;
import dev.serverfs.domain.workdir.ServerLimits;
import dev.serverfs.domain.workdir.Workdir;
import dev.serverfs.domain.workdir.WorkdirAlias;
import dev.serverfs.domain.workdir.Workdirs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * SIGKILL at random moments while a child JVM creates, edits and deletes files: afterwards every target is
 * absent or one complete version, never partial, and no {@code .serverfs-tmp-*} entry is visible through the read
 * tools. Temp entries may remain on disk after a kill (nothing cleans them at start-up); {@code RESERVED_PATH}
 * hides them. Seeded, bounded, no sleeps: each kill follows the child's report of N completed operations.
 */
class MutationCrashIT {

    private static final long SEED = 20261130L;
    private static final int KILLS = 8;
    private static final Pattern VERSION = Pattern.compile("(v[0-9]+\\|)\\1{" + (MutationCrashChild.REPEAT - 1) + "}");

    @Test
    void sigkill_never_leaves_a_partial_target_or_a_visible_temp_entry() throws Exception {
        Path base = Path.of("target", "mutation-crash", UUID.randomUUID().toString())
                .toAbsolutePath();
        Path root = Files.createDirectories(base.resolve("root"));
        Random random = new Random(SEED);
        Workdir rw = new Workdir(
                1,
                new WorkdirAlias("rw"),
                Optional.empty(),
                Access.READ_WRITE,
                MutationToolsIT.policy(true, 1 << 20),
                root);
        Workdirs workdirs = new Workdirs(List.of(rw));
        long total = 0;
        try (LinuxWorkdirFileSystem fs = new LinuxWorkdirFileSystem()) {
            ListDirectoryService list = new ListDirectoryService(workdirs, ServerLimits.DEFAULTS, fs);
            FindFilesService find = new FindFilesService(workdirs, ServerLimits.DEFAULTS, fs);
            for (int kill = 0; kill < KILLS; kill++) {
                long after = 150 + random.nextInt(350);
                total += runAndKill(root, random.nextLong(), after);
                for (int t = 0; t < MutationCrashChild.TARGETS; t++) {
                    Path target = root.resolve("t" + t + ".txt");
                    if (Files.exists(target)) {
                        String content = Files.readString(target);
                        assertTrue(
                                VERSION.matcher(content).matches(),
                                "target " + target.getFileName() + " is partial (" + content.length() + " chars)");
                    }
                }
                for (Entry e : list.listDirectory(new ListDirectoryQuery("rw", "", 0, 500))
                        .entries()) {
                    assertTrue(!e.name().startsWith(".serverfs-tmp-"), "listed: " + e.name());
                }
                for (String p :
                        find.findFiles(new FindFilesQuery("rw", "*", "", 100)).paths()) {
                    assertTrue(!p.contains(".serverfs-tmp-"), "found: " + p);
                }
            }
        } finally {
            try (Stream<Path> all = Files.walk(base)) {
                all.sorted(Collections.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        assertTrue(total >= 1000, "thousands of operations ran: " + total);
    }

    /** Starts the child, waits until it reports {@code after} operations, SIGKILLs it; returns the count seen. */
    private static long runAndKill(Path root, long seed, long after) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(MutationCrashChild.class.getName());
        command.add(root.toString());
        command.add(Long.toString(seed));
        Path errors = Files.createTempFile(root.getParent(), "child-", ".err");
        Process child =
                new ProcessBuilder(command).redirectError(errors.toFile()).start();
        long seen = 0;
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                seen = Long.parseLong(line.strip());
                if (seen >= after) {
                    break;
                }
            }
            if (seen < after) {
                child.waitFor(30, TimeUnit.SECONDS);
                fail("child ended after " + seen + " operations; its stderr:\n" + Files.readString(errors));
            }
            child.destroyForcibly(); // SIGKILL on Linux
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, child.exitValue(), "killed by SIGKILL");
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
        return seen;
    }
}
