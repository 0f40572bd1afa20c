package dev.serverfs.adapters.fs.lease;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Another process's {@code flock(2)} on a lock file, through util-linux {@code flock(1)}: {@link #hold} starts a
 * child that holds {@code LOCK_EX} until released or closed; {@link #probe} asks whether the lock is free.
 */
public final class ForeignFlock implements AutoCloseable {
    /** The reason to give when {@link #available()} is false. */
    public static final String UNAVAILABLE = "util-linux flock is not installed";

    private static final Path FLOCK = Path.of("/usr/bin/flock");

    private final Process holder;

    private ForeignFlock(Process holder) {
        this.holder = holder;
    }

    /** Whether {@code flock(1)} is installed. */
    public static boolean available() {
        return Files.isExecutable(FLOCK);
    }

    /** Starts a child holding an exclusive flock on {@code file}; returns once the child holds it. */
    public static ForeignFlock hold(Path file) throws IOException, InterruptedException {
        Process holder = new ProcessBuilder(
                        FLOCK.toString(), "--exclusive", file.toString(), "sh", "-c", "echo locked; exec cat")
                .redirectErrorStream(true)
                .start();
        ForeignFlock lock = new ForeignFlock(holder);
        try {
            String line = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            if (!"locked".equals(line)) {
                throw new IllegalStateException("flock(1) did not take the lock: " + line);
            }
            return lock;
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /** Lets the holder exit (its flock goes with it); true once it has, within ten seconds. */
    public boolean release() throws IOException, InterruptedException {
        holder.getOutputStream().close(); // cat ends, the holder exits and its flock is released
        return holder.waitFor(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        holder.destroyForcibly();
        try {
            holder.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Exit code of {@code flock --nonblock --exclusive FILE true}: 0 when free, 1 when held elsewhere. */
    public static int probe(Path file) throws IOException, InterruptedException {
        Process probe =
                new ProcessBuilder(FLOCK.toString(), "--nonblock", "--exclusive", file.toString(), "true").start();
        if (!probe.waitFor(10, TimeUnit.SECONDS)) {
            probe.destroyForcibly();
            throw new IllegalStateException("flock(1) probe did not finish");
        }
        return probe.exitValue();
    }
}
