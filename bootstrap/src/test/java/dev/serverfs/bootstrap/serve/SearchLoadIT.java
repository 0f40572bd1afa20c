package dev.serverfs.bootstrap.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24 §1 through a real {@code serverfs serve} child: searches over a git checkout whose {@code .gitignore} is
 * 1 MiB of patterns are CPU-bound for far longer than their deadline. Before the fix they ran on the tool calls'
 * virtual threads, held both carriers of a 2-core host, and a new client's {@code initialize} waited tens of seconds
 * behind them; the 15 s budget also started only once a search ran. Now other calls answer at once, and every search
 * ends at its deadline with a result that says how far it got.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SearchLoadIT {

    private static final int SEARCH_TIMEOUT_SECONDS = 4;
    private static final int SEARCHES = 8;
    private static final int FILES = 3000;
    /** A call that waits behind searches took 10-40 s before the fix; 2 s is generous for a loaded 2-core CI. */
    private static final Duration PROMPT = Duration.ofSeconds(2);
    /** The reference's 2 s grace for a search still running at its deadline, plus slack for a loaded host. */
    private static final Duration SEARCH_SLACK = Duration.ofSeconds(3);

    private ServeProcess serve;
    private String url;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("wd/repo"));
        Files.createDirectories(repo.resolve(".git"));
        // 1 MiB of patterns that match nothing; every entry is tried against all of them, and their stars find
        // many partial matches in the names below.
        StringBuilder ignore = new StringBuilder();
        for (int i = 0; ignore.length() < (1 << 20); i++) {
            ignore.append("*e*e*e*e*-never-").append(i).append('\n');
        }
        Files.writeString(repo.resolve(".gitignore"), ignore, StandardCharsets.UTF_8);
        for (int i = 0; i < FILES; i++) {
            Path file = repo.resolve("module-" + i % 30 + "/a-source-file-with-a-long-name-" + i + ".txt");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "needle " + i + "\n");
        }
        Files.writeString(dir.resolve("wd/stat-me.txt"), "x\n");
        Map<String, String> env = new HashMap<>();
        env.put("SERVERFS_HOST", "127.0.0.1");
        env.put("SERVERFS_PORT", Integer.toString(ServeProcess.freePort()));
        env.put("SERVERFS_SEARCH_TIMEOUT_SECONDS", Integer.toString(SEARCH_TIMEOUT_SECONDS));
        env.put("WORKDIR_01_ALIAS", "wd");
        env.put("WORKDIR_01_PATH", dir.resolve("wd").toString());
        serve = ServeProcess.start(env);
        url = serve.awaitUrl(Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() throws InterruptedException {
        if (serve != null) {
            serve.close();
        }
    }

    /** One search's outcome and how long it took. */
    private record Timed(McpTestClient.ToolCall call, Duration took) {}

    @Test
    void searches_over_a_huge_gitignore_never_stall_other_calls_and_end_at_their_deadline() throws Exception {
        McpTestClient searcher = new McpTestClient(url);
        // A query no file holds: every search has the whole tree to walk.
        Map<String, Object> search = Map.of("workdir", "wd", "query", "absent", "path", "repo");
        ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
        try {
            List<Future<Timed>> searches = new ArrayList<>();
            for (int i = 0; i < SEARCHES; i++) {
                searches.add(callers.submit(() -> {
                    long started = System.nanoTime();
                    McpTestClient.ToolCall call = searcher.call("search_text", search);
                    return new Timed(call, Duration.ofNanos(System.nanoTime() - started));
                }));
            }
            // Other clients' calls while the searches run: each must answer promptly.
            Duration slowest = Duration.ZERO;
            int probes = 0;
            while (searches.stream().anyMatch(f -> !f.isDone())) {
                long started = System.nanoTime();
                McpTestClient fresh = new McpTestClient(url);
                Duration initialize = Duration.ofNanos(System.nanoTime() - started);
                started = System.nanoTime();
                assertEquals(
                        "file",
                        fresh.call("stat_file", Map.of("workdir", "wd", "path", "stat-me.txt"))
                                .ok()
                                .get("type")
                                .textValue());
                Duration stat = Duration.ofNanos(System.nanoTime() - started);
                started = System.nanoTime();
                fresh.ping();
                Duration ping = Duration.ofNanos(System.nanoTime() - started);
                for (Duration d : List.of(initialize, stat, ping)) {
                    slowest = d.compareTo(slowest) > 0 ? d : slowest;
                }
                probes++;
            }
            assertTrue(probes > 0, "no call was made while the searches ran");
            assertTrue(
                    slowest.compareTo(PROMPT) < 0,
                    "a call waited " + slowest.toMillis() + " ms behind the searches (" + probes + " probes)");
            Duration bound = Duration.ofSeconds(SEARCH_TIMEOUT_SECONDS).plus(SEARCH_SLACK);
            int cut = 0;
            int waited = 0;
            for (Future<Timed> f : searches) {
                Timed t = f.get(1, TimeUnit.MINUTES);
                assertTrue(
                        t.took().compareTo(bound) < 0,
                        "a search took " + t.took().toMillis() + " ms");
                String error = t.call().error();
                assertTrue(error != null, "a search was not cut: " + t.call().structured());
                assertTrue(error.startsWith("SEARCH_TIMEOUT: search in wd:repo exceeded 4s "), error);
                if (error.contains(" after searching ")) {
                    cut++;
                } else if (error.contains(" waiting for a free search slot")) {
                    waited++;
                }
            }
            assertEquals(SEARCHES, cut + waited, "every search says how far it got");
            assertTrue(waited > 0, "more searches than cores: some waited, and the wait counted");
        } finally {
            callers.shutdownNow();
        }
    }
}
