package dev.serverfs.bootstrap.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * A real {@code serverfs serve} (or other sub-command's) child process on the test class path, with a controlled environment (no inherited
 * {@code SERVERFS_*} or {@code WORKDIR_*} variables). Collects stderr lines; {@link #close} stops it.
 */
final class ServeProcess implements AutoCloseable {

    private static final String LISTENING = "ServerFS listening on ";

    private final Process process;
    private final String subCommand;
    private final List<String> stderr = new ArrayList<>();
    private final CompletableFuture<String> url = new CompletableFuture<>();

    private ServeProcess(Process process, String subCommand) {
        this.process = process;
        this.subCommand = subCommand;
        Thread.ofPlatform().daemon().name(subCommand + "-stderr").start(this::pump);
    }

    static ServeProcess start(Map<String, String> env, String... args) throws IOException {
        return startCommand("serve", env, args);
    }

    /** Another sub-command of the same artifact (e.g. {@code bridge}), with the same controlled environment. */
    static ServeProcess startCommand(String subCommand, Map<String, String> env, String... args) throws IOException {
        return startOn(System.getProperty("java.class.path"), subCommand, env, args);
    }

    /** As {@link #startCommand}, from another build's {@code classpath} (a benchmark's side by side). */
    static ServeProcess startOn(String classpath, String subCommand, Map<String, String> env, String... args)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.add("--enable-native-access=ALL-UNNAMED");
        command.add("-cp");
        command.add(classpath);
        command.add("dev.serverfs.bootstrap.ServerFsMain");
        command.add(subCommand);
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
        builder.environment().putAll(env);
        return new ServeProcess(builder.start(), subCommand);
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void pump() {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (stderr) {
                    stderr.add(line);
                    stderr.notifyAll();
                }
                if (line.startsWith(LISTENING)) {
                    url.complete(line.substring(LISTENING.length()).strip());
                }
            }
        } catch (IOException e) {
            url.completeExceptionally(e);
        }
        url.completeExceptionally(new IllegalStateException(subCommand + " ended before listening: " + stderr()));
    }

    /** The MCP URL printed on stderr, waiting up to {@code timeout}. */
    String awaitUrl(Duration timeout) throws InterruptedException, TimeoutException {
        try {
            return url.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        }
    }

    /** The child's process id (for {@code /proc/<pid>} readings). */
    long pid() {
        return process.pid();
    }

    List<String> stderr() {
        synchronized (stderr) {
            return List.copyOf(stderr);
        }
    }

    /** Waits until a stderr line satisfies {@code predicate} or the deadline passes (woken by each new line). */
    Optional<String> awaitLine(Predicate<String> predicate, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        synchronized (stderr) {
            while (true) {
                Optional<String> found = stderr.stream().filter(predicate).findFirst();
                long left = Duration.between(Instant.now(), deadline).toMillis();
                if (found.isPresent() || left <= 0) {
                    return found;
                }
                stderr.wait(left);
            }
        }
    }

    /** SIGTERM, then the exit code (or -1 if it had to be killed). */
    int terminate(Duration grace) throws InterruptedException {
        // ProcessHandle.destroy sends SIGTERM only; Process.destroy would also close our end of its stderr,
        // losing what the process writes while it shuts down.
        process.toHandle().destroy();
        if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
            return process.exitValue();
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return -1;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL: the process gets no chance to clean up (its children are not killed). */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    int waitForExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(subCommand + " did not exit within " + timeout + ": " + stderr());
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        try {
            terminate(Duration.ofSeconds(20));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
