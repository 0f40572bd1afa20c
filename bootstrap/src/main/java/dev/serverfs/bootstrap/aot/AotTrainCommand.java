package dev.serverfs.bootstrap.aot;

import dev.serverfs.bootstrap.cli.SubCommand;
import dev.serverfs.bootstrap.launch.ServerFsProcess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.Converter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/**
 * {@code serverfs aot-train --output F}: starts {@code serve} as a child of this JVM's own java and JVM options plus
 * {@code -XX:AOTCacheOutput}, drives {@link TrainingWorkload} against it in a scratch {@link TrainingFixture}, stops
 * it with SIGTERM, and moves the finished cache to {@code F}. A run that fails anywhere leaves no file at {@code F}
 * (an older one there is kept) and exits 1.
 */
public final class AotTrainCommand implements SubCommand {

    private static final String LISTENING = "ServerFS listening on ";
    private static final Duration START_WAIT = Duration.ofSeconds(180);
    private static final Duration STOP_WAIT = Duration.ofSeconds(300);

    private static final String OUTPUT = "output";
    private static final String ROUNDS = "rounds";
    private static final String MAX_SECONDS = "max-seconds";
    private static final int DEFAULT_ROUNDS = 400;
    private static final int DEFAULT_MAX_SECONDS = 60;

    @Override
    public String name() {
        return "aot-train";
    }

    @Override
    public String description() {
        return "Record the start-up (AOT) cache of serve from a scripted workload, into --output.";
    }

    @Override
    public Options options() {
        return new Options()
                .addOption(Option.builder()
                        .longOpt(OUTPUT)
                        .hasArg()
                        .argName("FILE")
                        .required()
                        .converter(Converter.PATH)
                        .desc("Where the cache goes (written only when complete).")
                        .get())
                .addOption(Option.builder()
                        .longOpt(ROUNDS)
                        .hasArg()
                        .argName("N")
                        .converter(AotTrainCommand::count)
                        .desc("Rounds of file calls (default: " + DEFAULT_ROUNDS + ").")
                        .get())
                .addOption(Option.builder()
                        .longOpt(MAX_SECONDS)
                        .hasArg()
                        .argName("S")
                        .converter(AotTrainCommand::count)
                        .desc("Stop the rounds early after this long (default: " + DEFAULT_MAX_SECONDS + ").")
                        .get());
    }

    private static int count(String value) throws ParseException {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw new ParseException("not a positive whole number: " + value);
    }

    @Override
    public int run(CommandLine line) throws ParseException, InterruptedException {
        Path output = line.getParsedOptionValue(OUTPUT);
        int rounds = line.getParsedOptionValue(ROUNDS, DEFAULT_ROUNDS);
        Duration maxTime = Duration.ofSeconds(line.<Integer>getParsedOptionValue(MAX_SECONDS, DEFAULT_MAX_SECONDS));
        Path target = output.toAbsolutePath();
        Path partial = target.resolveSibling(
                target.getFileName() + ".partial-" + ProcessHandle.current().pid());
        Path partialConfig = partial.resolveSibling(partial.getFileName() + ".config");
        long started = System.nanoTime();
        try (TrainingFixture fixture = TrainingFixture.create()) {
            int calls = train(fixture, partial, rounds, maxTime);
            if (!Files.isRegularFile(partial) || Files.size(partial) == 0 || Files.exists(partialConfig)) {
                throw new IOException("the JVM wrote no complete cache");
            }
            Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            System.err.printf(
                    "ServerFS: start-up cache trained (%d calls, %d s)%n",
                    calls, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
            return 0;
        } catch (IOException | RuntimeException e) {
            System.err.println("ServerFS: start-up cache training failed: " + e.getMessage());
            return 1;
        } finally {
            deleteQuietly(partial);
            deleteQuietly(partialConfig);
        }
    }

    private int train(TrainingFixture fixture, Path partial, int rounds, Duration maxTime)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(serveCommand(partial))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.PIPE);
        builder.environment().keySet().removeIf(k -> k.startsWith("SERVERFS_") || k.startsWith("WORKDIR_"));
        builder.environment().putAll(fixture.serveEnvironment(freePort()));
        Process serve = builder.start();
        // Interrupted (SIGTERM, Ctrl-C): no serve left behind and no partial cache beside the output.
        Thread stopOnExit = Thread.ofPlatform().unstarted(() -> {
            serve.destroyForcibly();
            deleteQuietly(partial);
            deleteQuietly(partial.resolveSibling(partial.getFileName() + ".config"));
        });
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        Deque<String> tail = new ArrayDeque<>();
        CompletableFuture<String> url = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("aot-train-serve-stderr").start(() -> pump(serve, tail, url));
        try {
            String endpoint;
            try {
                endpoint = url.get(START_WAIT.toSeconds(), TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IOException("serve did not start: " + String.join(" | ", snapshot(tail)));
            }
            int calls = new TrainingWorkload(endpoint).run(rounds, maxTime);
            // SIGTERM through the handle: Process.destroy would also close the stderr pipe, which the JVM that
            // assembles the cache after serve stops still writes to (it would die of SIGPIPE).
            serve.toHandle().destroy();
            if (!serve.waitFor(STOP_WAIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IOException(
                        "serve did not stop (and write the cache) within " + STOP_WAIT.toSeconds() + " s");
            }
            int rc = serve.exitValue();
            if (rc != 0 && rc != 143) {
                throw new IOException("serve exited " + rc + ": " + String.join(" | ", snapshot(tail)));
            }
            return calls;
        } finally {
            if (serve.isAlive()) {
                serve.destroyForcibly();
                serve.waitFor(30, TimeUnit.SECONDS);
            }
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        }
    }

    /**
     * This JVM's java and options (the launcher's or the image's flags, which the cache must be used with), then the
     * output flag and {@code serve}: by {@code -jar} when the class path is the one jar, as it will be started.
     */
    private static List<String> serveCommand(Path partial) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!option.startsWith("-XX:AOT")
                    && !option.startsWith("-Xlog:aot")
                    && !option.startsWith("-Xlog:cds")
                    && !option.startsWith("-XX:SharedArchiveFile")) {
                command.add(option);
            }
        }
        command.add("-XX:AOTCacheOutput=" + partial);
        String classPath = System.getProperty("java.class.path");
        if (classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)) {
            command.addAll(List.of("-jar", classPath));
        } else {
            command.addAll(List.of("-cp", classPath, ServerFsProcess.MAIN_CLASS));
        }
        command.add("serve");
        return command;
    }

    private static void pump(Process serve, Deque<String> tail, CompletableFuture<String> url) {
        try (BufferedReader in =
                new BufferedReader(new InputStreamReader(serve.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(LISTENING)) {
                    url.complete(line.substring(LISTENING.length()).strip());
                }
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > 5) {
                        tail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // the child is gone; its exit code says the rest
        }
        url.completeExceptionally(new IOException("serve exited"));
    }

    private static List<String> snapshot(Deque<String> tail) {
        synchronized (tail) {
            return List.copyOf(tail);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // nothing to keep: a leftover partial file is never taken for a cache
        }
    }
}
