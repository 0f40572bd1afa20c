package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real {@code /bin/sh} children supervised by {@link ProviderChild}. */
class ProviderChildIT {
    @TempDir
    Path dir;

    private final List<ProviderChild> started = new CopyOnWriteArrayList<>();

    @AfterEach
    void killLeftovers() {
        for (ProviderChild child : started) {
            ProcessHandle.of(child.pid()).ifPresent(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            });
        }
    }

    private ProviderChild sh(String script) {
        return sh(script, Map.of(), 1024);
    }

    private ProviderChild sh(String script, Map<String, String> env, int maxLineBytes) {
        ProviderChild child =
                ProviderChild.start(new ProviderCommand(List.of("/bin/sh", "-c", script), dir, env, maxLineBytes));
        started.add(child);
        return child;
    }

    /**
     * bubblewrap's {@code --die-with-parent} (every confined child has it) kills the child when the thread that
     * started it ends (PR_SET_PDEATHSIG follows the thread, not the process), and the runtimes start children from
     * virtual threads, whose carrier threads end after 30 s idle: a long turn on a quiet server died with them.
     * A child started from a thread that then ends lives on.
     */
    @Test
    void a_child_outlives_the_thread_that_started_it() throws Exception {
        ProviderCommand bwrap = new ProviderCommand(
                List.of("bwrap", "--dev-bind", "/", "/", "--die-with-parent", "--", "/bin/sh", "-c", "echo up; cat"),
                dir,
                Map.of("PATH", "/usr/bin:/bin"),
                1024);
        ProviderChild[] child = new ProviderChild[1];
        Thread starter = Thread.ofPlatform().start(() -> child[0] = ProviderChild.start(bwrap));
        starter.join();
        started.add(child[0]);
        assertEquals(Optional.of("up"), child[0].take(), "the child started");
        java.util.concurrent.CompletableFuture<Void> exited = new java.util.concurrent.CompletableFuture<>();
        child[0].onExit(() -> exited.complete(null));
        // a child killed with its starter is gone within milliseconds; this one must still be there
        assertThrows(java.util.concurrent.TimeoutException.class, () -> exited.get(2, TimeUnit.SECONDS));
        assertTrue(child[0].isAlive());
    }

    private static List<String> allLines(ProviderChild child) throws InterruptedException {
        List<String> out = new ArrayList<>();
        Optional<String> line;
        while ((line = child.take()).isPresent()) {
            out.add(line.get());
        }
        return out;
    }

    @Test
    void the_child_sees_only_the_given_environment_and_runs_in_the_given_directory() throws Exception {
        Map<String, String> env =
                ProviderCommand.inherit(Map.of("KEEP", "yes", "DROP", "no"), Set.of("KEEP", "ABSENT"));
        assertEquals(Map.of("KEEP", "yes"), env);
        ProviderChild child = sh("echo \"[$KEEP][$DROP][$HOME]\"; pwd -P", env, 1024);
        assertEquals(List.of("[yes][][]", dir.toRealPath().toString()), allLines(child));
    }

    @Test
    void the_recorded_process_is_the_child_with_its_proc_start_time() throws Exception {
        ProviderChild child = sh("read x");
        ProviderProcess recorded = child.process().orElseThrow();
        assertEquals(child.pid(), recorded.pid());
        String stat = Files.readString(Path.of("/proc", Long.toString(child.pid()), "stat"));
        assertEquals(ProcessStartTime.parse(stat), Optional.of(recorded.startTime()));
        assertTrue(child.stop(StopPolicy.BOUNDED));
    }

    @Test
    void a_line_over_the_maximum_fails_every_later_take() throws Exception {
        ProviderChild child = sh("echo short; head -c 5000 /dev/zero | tr '\\\\0' x; echo; echo after", Map.of(), 100);
        assertEquals(Optional.of("short"), child.take());
        ServerFsException tooLong = assertThrows(ServerFsException.class, child::take);
        assertEquals(ErrorCode.AGENT_PROVIDER_ERROR, tooLong.code());
        assertEquals(
                ErrorCode.AGENT_PROVIDER_ERROR,
                assertThrows(ServerFsException.class, child::take).code());
        assertTrue(child.stop(StopPolicy.BOUNDED));
    }

    @Test
    void a_flood_of_stderr_never_blocks_the_child_and_is_only_counted() throws Exception {
        ProviderChild child = sh("head -c 3000000 /dev/zero >&2; echo done");
        assertEquals(List.of("done"), allLines(child));
        assertTrue(child.stop(StopPolicy.BOUNDED));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (child.stderrBytes() < 3_000_000 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(3_000_000, child.stderrBytes());
    }

    @Test
    void lines_round_trip_through_stdin_and_a_closed_stdin_ends_a_cooperative_child() throws Exception {
        ProviderChild child = sh("while read line; do echo \"got $line\"; done");
        assertTrue(child.send("one"));
        assertEquals(Optional.of("got one"), child.take());
        long t0 = System.nanoTime();
        assertTrue(child.stop(StopPolicy.BOUNDED));
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).compareTo(StopPolicy.BOUNDED.grace()) < 0);
        assertFalse(child.isAlive());
        assertFalse(child.send("two"));
        assertTrue(child.stop(StopPolicy.BOUNDED), "idempotent");
    }

    @Test
    void a_child_ignoring_stdin_and_sigterm_is_killed_with_its_descendants_within_the_bound() throws Exception {
        ProviderChild child = sh("trap '' TERM; sleep 300 & echo ready; while :; do sleep 1; done");
        assertEquals(Optional.of("ready"), child.take());
        List<ProcessHandle> descendants =
                ProcessHandle.of(child.pid()).orElseThrow().descendants().toList();
        StopPolicy quick = new StopPolicy(Duration.ofMillis(200), Duration.ofMillis(300), Duration.ofSeconds(5), true);
        long t0 = System.nanoTime();
        assertTrue(child.stop(quick));
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).compareTo(quick.bound()) <= 0);
        assertFalse(child.isAlive());
        for (ProcessHandle d : descendants) {
            assertTrue(d.onExit().get(5, TimeUnit.SECONDS) != null, "descendant " + d.pid() + " gone");
        }
    }

    @Test
    void a_stop_that_may_not_kill_gives_up_without_proof_and_a_later_exit_is_still_observed() throws Exception {
        ProviderChild child = sh("trap '' TERM; echo ready; while :; do sleep 1; done");
        assertEquals(Optional.of("ready"), child.take());
        CountDownLatch exited = new CountDownLatch(1);
        child.onExit(exited::countDown);
        assertFalse(child.stop(new StopPolicy(Duration.ofMillis(200), Duration.ZERO, Duration.ZERO, false)));
        assertTrue(child.isAlive());
        ProcessHandle.of(child.pid()).orElseThrow().destroyForcibly();
        assertTrue(exited.await(10, TimeUnit.SECONDS));
    }

    @Test
    void a_stop_holds_through_interrupts_and_restores_the_interrupt_status() throws Exception {
        ProviderChild child = sh("trap '' TERM; echo ready; while :; do sleep 1; done");
        assertEquals(Optional.of("ready"), child.take());
        Thread.currentThread().interrupt();
        boolean exited =
                child.stop(new StopPolicy(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofSeconds(5), true));
        assertTrue(Thread.interrupted(), "interrupt status restored");
        assertTrue(exited);
    }

    @Test
    void a_program_that_does_not_exist_is_runtime_unavailable() {
        ServerFsException e = assertThrows(
                ServerFsException.class,
                () -> ProviderChild.start(new ProviderCommand(
                        List.of(dir.resolve("no-such-binary").toString()), dir, Map.of(), 1024)));
        assertEquals(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, e.code());
        assertFalse(e.getMessage().contains(dir.toString()));
    }

    @Test
    void the_probe_answers_the_first_line_of_a_quick_successful_run_only() {
        ProviderCommand ok =
                new ProviderCommand(List.of("/bin/sh", "-c", "echo ' tool 1.2.3 '; echo more"), dir, Map.of(), 1024);
        assertEquals(Optional.of("tool 1.2.3"), ProviderProbe.firstLine(ok, Duration.ofSeconds(10)));
        ProviderCommand fails = new ProviderCommand(List.of("/bin/sh", "-c", "echo v; exit 3"), dir, Map.of(), 1024);
        assertEquals(Optional.empty(), ProviderProbe.firstLine(fails, Duration.ofSeconds(10)));
        ProviderCommand missing =
                new ProviderCommand(List.of(dir.resolve("absent").toString()), dir, Map.of(), 1024);
        assertEquals(Optional.empty(), ProviderProbe.firstLine(missing, Duration.ofSeconds(10)));
        ProviderCommand slow = new ProviderCommand(List.of("/bin/sh", "-c", "exec sleep 60"), dir, Map.of(), 1024);
        long t0 = System.nanoTime();
        assertEquals(Optional.empty(), ProviderProbe.firstLine(slow, Duration.ofMillis(300)));
        assertTrue(Duration.ofNanos(System.nanoTime() - t0).compareTo(Duration.ofSeconds(5)) < 0);
    }
}
