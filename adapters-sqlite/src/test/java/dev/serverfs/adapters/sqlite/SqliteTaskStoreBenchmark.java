package dev.serverfs.adapters.sqlite;

import static dev.serverfs.application.testing.TaskFixtures.T0;
import static dev.serverfs.application.testing.TaskFixtures.queued;

import dev.serverfs.application.port.out.TaskStore;
import dev.serverfs.domain.task.Task;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteConfig;

/**
 * Store write throughput on a real file (BENCHMARKS.md): task inserts and event appends per second, each its own
 * durable {@code BEGIN IMMEDIATE} transaction, median of several runs. Not part of the normal suite (the name
 * matches neither {@code *Test} nor {@code *IT}) and it asserts nothing about time. Run it with:
 *
 * <pre>
 * mvn -B -q -pl adapters-sqlite -am verify -Dtest=SqliteTaskStoreBenchmark -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 *
 * The results are printed to standard output (and surefire's report of this class).
 */
class SqliteTaskStoreBenchmark {

    private static final int RUNS = 5;
    private static final int TASKS = 500;
    private static final int EVENTS = 1_000;
    private static final int THREADS = 4;

    @Test
    void store_write_throughput() throws Exception {
        Path root = Files.createDirectories(Path.of("target", "benchmark"));
        List<Double> inserts = new ArrayList<>();
        List<Double> appends = new ArrayList<>();
        List<Double> concurrentAppends = new ArrayList<>();
        List<Double> rawInserts = new ArrayList<>();
        for (int run = 0; run <= RUNS; run++) {
            Path stateDir = root.resolve("run-" + run);
            deleteRecursively(stateDir);
            try (SqliteTaskStores opened = SqliteTaskStores.open(stateDir)) {
                TaskStore store = opened.taskStore();
                long started = System.nanoTime();
                for (int i = 1; i <= TASKS; i++) {
                    store.insert(queued(i, Optional.of("key-" + i)), Integer.MAX_VALUE);
                }
                double insertRate = perSecond(TASKS, System.nanoTime() - started);

                Task task = store.update(queued(1).id(), t -> t.starting(T0).running(T0));
                started = System.nanoTime();
                for (int i = 0; i < EVENTS; i++) {
                    store.appendEvent(task.id(), "agent.message", "{\"text\":\"progress\"}", T0, Integer.MAX_VALUE);
                }
                double appendRate = perSecond(EVENTS, System.nanoTime() - started);

                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    List<Future<?>> futures = new ArrayList<>();
                    started = System.nanoTime();
                    for (int t = 0; t < THREADS; t++) {
                        Task own = store.update(
                                queued(t + 2).id(), x -> x.starting(T0).running(T0));
                        futures.add(pool.submit(() -> {
                            for (int i = 0; i < EVENTS / THREADS; i++) {
                                store.appendEvent(own.id(), "agent.message", "{}", T0, Integer.MAX_VALUE);
                            }
                        }));
                    }
                    for (Future<?> future : futures) {
                        future.get();
                    }
                    double concurrentRate = perSecond(EVENTS, System.nanoTime() - started);
                    double rawRate = rawInsertRate(stateDir.resolve("raw.sqlite3"));
                    if (run > 0) { // run 0 warms up the JIT and Liquibase
                        rawInserts.add(rawRate);
                        inserts.add(insertRate);
                        appends.add(appendRate);
                        concurrentAppends.add(concurrentRate);
                    }
                } finally {
                    pool.shutdownNow();
                }
            }
            deleteRecursively(stateDir);
        }
        System.out.printf(
                "sqlite-store cores=%d runs=%d: task inserts/s median %.0f (runs %s), raw JDBC baseline median %.0f"
                        + " (runs %s), ratio %.2f; event appends/s median %.0f (runs %s); event appends/s from %d"
                        + " threads median %.0f (runs %s)%n",
                Runtime.getRuntime().availableProcessors(),
                RUNS,
                median(inserts),
                rounded(inserts),
                median(rawInserts),
                rounded(rawInserts),
                median(inserts) / median(rawInserts),
                median(appends),
                rounded(appends),
                THREADS,
                median(concurrentAppends),
                rounded(concurrentAppends));
    }

    /**
     * The same number of single-row inserts, each its own {@code BEGIN IMMEDIATE} transaction, through plain JDBC on
     * a file with the store's pragmas: what SQLite and the disk allow before jOOQ, mapping and locking.
     */
    private static double rawInsertRate(Path file) throws SQLException {
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.enforceForeignKeys(true);
        config.setBusyTimeout(5000);
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        try (Connection connection = config.createConnection("jdbc:sqlite:" + file)) {
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("CREATE TABLE t (id TEXT PRIMARY KEY, k TEXT, created_at TEXT NOT NULL)");
            }
            connection.setAutoCommit(false);
            long started = System.nanoTime();
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                for (int i = 1; i <= TASKS; i++) {
                    insert.setString(1, "agt_" + i);
                    insert.setString(2, "key-" + i);
                    insert.setString(3, "2026-01-02T03:04:05.123456Z");
                    insert.executeUpdate();
                    connection.commit();
                }
            }
            return perSecond(TASKS, System.nanoTime() - started);
        }
    }

    private static double perSecond(int operations, long nanos) {
        return operations * 1e9 / nanos;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    private static List<Long> rounded(List<Double> values) {
        return values.stream().map(Math::round).toList();
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
