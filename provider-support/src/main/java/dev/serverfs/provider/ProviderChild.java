package dev.serverfs.provider;

import dev.serverfs.domain.error.ErrorCode;
import dev.serverfs.domain.error.ServerFsException;
import dev.serverfs.domain.task.ProviderProcess;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One running provider child (CONTRACT.md §3.1): started from a {@link ProviderCommand}, its pid and start time
 * known at once ({@link #process}, for the recovery guard), stdout read by its own thread as UTF-8 lines of at most
 * {@code maxLineBytes} into a bounded queue ({@link #take}), stderr drained by another thread and only counted (it
 * is never kept or logged: providers print prompts and paths there), and one bounded stop ({@link #stop}).
 *
 * <p>Thread safety: {@link #send}, {@link #closeInput}, {@link #stop} and {@link #isAlive} may be called from any
 * thread; {@link #take} has one consumer.
 */
public final class ProviderChild {
    /** The one thread every child is started from (see {@link #start}); it never ends. */
    private static final ExecutorService SPAWNER = Executors.newSingleThreadExecutor(
            Thread.ofPlatform().daemon().name("provider-spawner").factory());

    /** Lines read ahead of the consumer; the child blocks on a full pipe beyond that (backpressure, no growth). */
    private static final int QUEUE_LINES = 256;

    private final Process process;
    private final Optional<ProviderProcess> recorded;
    private final int maxLineBytes;
    private final OutputStream stdin;
    private final BlockingQueue<Item> lines = new LinkedBlockingQueue<>(QUEUE_LINES);
    private final AtomicLong stderrBytes = new AtomicLong();
    /** Set by {@link #stop}: nobody reads any more, so the reader drops what it reads instead of queueing it. */
    private volatile boolean discard;
    /** The end item once {@link #take} met it: every later take repeats it. */
    private volatile Item end;

    private ProviderChild(Process process, int maxLineBytes) {
        this.process = process;
        this.maxLineBytes = maxLineBytes;
        this.recorded = ProcessStartTime.of(process.pid()).map(start -> new ProviderProcess(process.pid(), start));
        this.stdin = process.getOutputStream();
        String pid = Long.toString(process.pid());
        Thread.ofPlatform().daemon().name("provider-out-" + pid).start(this::readStdout);
        Thread.ofPlatform().daemon().name("provider-err-" + pid).start(this::drainStderr);
    }

    /**
     * Starts the child with exactly {@code command}'s environment, in its working directory. A program that cannot
     * be started → {@code AGENT_RUNTIME_UNAVAILABLE} (the message names neither the program nor the directory).
     *
     * <p>The child is started from {@link #SPAWNER}, whatever thread asks: bubblewrap's {@code --die-with-parent}
     * (PR_SET_PDEATHSIG) kills the child when the thread that started it ends, not the process, and a virtual
     * thread's carrier ends after 30 s idle; the spawner lives as long as the server.
     *
     * <p>The command's {@link ProviderCommand#launchFiles} are removed here when the child cannot start, and again
     * when it ends (its launcher removed them already unless it was killed first).
     */
    public static ProviderChild start(ProviderCommand command) {
        ProcessBuilder builder = new ProcessBuilder(command.argv())
                .directory(command.workingDirectory().toFile());
        builder.environment().clear();
        builder.environment().putAll(command.environment());
        Future<Process> started = SPAWNER.submit(builder::start);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    // not given up on an interrupt: the process may be starting, and must not be left unowned
                    Process process = started.get();
                    process.onExit().thenRun(() -> remove(command.launchFiles()));
                    return new ProviderChild(process, command.maxLineBytes());
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException | RuntimeException e) {
            remove(command.launchFiles());
            throw new ServerFsException(ErrorCode.AGENT_RUNTIME_UNAVAILABLE, "the provider process could not start");
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void remove(List<Path> files) {
        for (Path file : files) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // its owner-only directory keeps it from anyone else; nothing more can be done
            }
        }
    }

    /** The child's pid. */
    public long pid() {
        return process.pid();
    }

    /**
     * The pid and start time read right after the start, for {@code RunContext.providerStarted}; empty only when the
     * child was already gone (or {@code /proc} unreadable) at that moment.
     */
    public Optional<ProviderProcess> process() {
        return recorded;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Runs {@code action} once the child's exit is observed, whenever that is (even after a stop gave up on it). */
    public void onExit(Runnable action) {
        process.onExit().thenRun(action);
    }

    /** How many bytes of stderr were drained so far (diagnostics without content). */
    public long stderrBytes() {
        return stderrBytes.get();
    }

    /**
     * Writes {@code line} and a newline to the child's stdin and flushes. False when the child is gone or the pipe
     * is broken or closed: the caller decides whether that ends the turn.
     */
    public synchronized boolean send(String line) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Closes the child's stdin (providers take it as "exit now"); idempotent. */
    public synchronized void closeInput() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already closed or broken: the child sees the end of its stdin either way
        }
    }

    /**
     * The next stdout line (without its newline), or empty at the end of the child's output; interruptible. A line
     * longer than {@code maxLineBytes} → {@code AGENT_PROVIDER_ERROR}, and every later call answers the same: the
     * turn fails rather than buffering without bound.
     */
    public Optional<String> take() throws InterruptedException {
        Item known = end;
        Item item = known != null ? known : lines.take();
        switch (item) {
            case Item.Line line -> {
                return Optional.of(line.text());
            }
            case Item.End e -> {
                end = e;
                return Optional.empty();
            }
            case Item.TooLong t -> {
                end = t;
                throw new ServerFsException(
                        ErrorCode.AGENT_PROVIDER_ERROR,
                        "the provider wrote a line longer than " + maxLineBytes + " bytes");
            }
        }
    }

    /** The next line within {@code timeout}; empty at the end of the output or when none came in time (probes). */
    Optional<String> takeWithin(Duration timeout) throws InterruptedException {
        Item item = end != null ? end : lines.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        return item instanceof Item.Line line ? Optional.of(line.text()) : Optional.empty();
    }

    /** The exit code once the child exited within {@code timeout}, else empty (probes). */
    Optional<Integer> exitCode(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)
                ? Optional.of(process.exitValue())
                : Optional.empty();
    }

    /**
     * The bounded stop: stdin closed, {@code grace} to exit, then {@code SIGTERM} and {@code termWait}, then {@code
     * SIGKILL} (also to the descendants seen before it, which the kill would orphan) and {@code killWait}. Every wait
     * holds whatever interrupts arrive (a cancelled turn's thread may be interrupted more than once) and the
     * interrupt status is restored afterwards. Returns whether the child's exit was observed: the proof of stop for
     * the recovery guard. Idempotent; safe to call from several threads.
     */
    public boolean stop(StopPolicy policy) {
        discard = true;
        lines.clear(); // a reader blocked on a full queue moves on and from now on drops what it reads
        if (!process.isAlive()) {
            return true;
        }
        closeInput();
        if (awaitExit(policy.grace())) {
            return true;
        }
        if (!policy.kill()) {
            return false;
        }
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        if (awaitExit(policy.termWait())) {
            return true;
        }
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        return awaitExit(policy.killWait());
    }

    private boolean awaitExit(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void readStdout() {
        Item last = new Item.End();
        try (InputStream out = new BufferedInputStream(process.getInputStream())) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean tooLong = false;
            int b;
            while ((b = out.read()) >= 0) {
                if (tooLong) {
                    continue; // keep draining so the child never blocks on a full pipe before it is stopped
                }
                if (b == '\n') {
                    queue(new Item.Line(decode(line)));
                    line.reset();
                } else if (line.size() >= maxLineBytes) {
                    tooLong = true;
                    last = new Item.TooLong();
                    queue(last);
                } else {
                    line.write(b);
                }
            }
            if (!tooLong && line.size() > 0) {
                queue(new Item.Line(decode(line)));
            }
        } catch (IOException e) {
            // a broken stdout is the end of the output
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (!(last instanceof Item.TooLong)) {
                try {
                    queue(last);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void queue(Item item) throws InterruptedException {
        if (!discard) {
            // bounded: waits while the consumer is behind, and gives up the moment a stop says nobody reads any more
            while (!discard && !lines.offer(item, 100, TimeUnit.MILLISECONDS)) {
                // retry until there is room or the child is being stopped
            }
        }
    }

    private static String decode(ByteArrayOutputStream line) {
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    private void drainStderr() {
        try (InputStream err = process.getErrorStream()) {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = err.read(buffer)) >= 0) {
                stderrBytes.addAndGet(n);
            }
        } catch (IOException e) {
            // stderr broke: nothing left to drain
        }
    }

    /** What the stdout reader hands to {@link #take}. */
    private sealed interface Item {
        record Line(String text) implements Item {}

        record End() implements Item {}

        record TooLong() implements Item {}
    }
}
