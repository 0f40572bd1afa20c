package dev.serverfs.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forwarder on its own, outside a view: it ends as soon as its child did (BENCHMARKS.md "Provider view"), with no
 * connection, after a connection the child closed, and with a connection still open. The JVM's exit waits up to 300 ms
 * for threads blocked in native code; a forwarder that left one there took at least that long after every turn.
 * A timing check, so not part of the suite (CI never fails on timing); run with {@code ./test.sh -pl provider-support
 * -am -Dtest=EgressForwarderExitBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class EgressForwarderExitBenchmark {
    /** Far below the JVM's 300 ms wait, far above a normal exit (about 20 ms on a loaded 2-core machine). */
    private static final long PROMPT_EXIT_MILLIS = 200;

    @TempDir
    Path dir;

    private Path socket;
    private ServerSocketChannel relay;
    private final List<SocketChannel> accepted = new ArrayList<>();
    private final List<Process> started = new ArrayList<>();

    /** A stand-in for the relay: accepts, answers {@code pong} to each connection's first bytes, holds it open. */
    @BeforeEach
    void relay() throws Exception {
        socket = dir.resolve("egress.sock");
        relay = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        relay.bind(UnixDomainSocketAddress.of(socket));
        Thread.ofVirtual().start(() -> {
            while (true) {
                try {
                    SocketChannel c = relay.accept();
                    synchronized (accepted) {
                        accepted.add(c);
                    }
                    Thread.ofVirtual().start(() -> {
                        try {
                            c.read(ByteBuffer.allocate(64));
                            c.write(ByteBuffer.wrap("pong".getBytes(StandardCharsets.US_ASCII)));
                        } catch (Exception e) {
                            // the test ended
                        }
                    });
                } catch (Exception e) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stop() throws Exception {
        relay.close();
        synchronized (accepted) {
            for (SocketChannel c : accepted) {
                c.close();
            }
        }
        for (Process p : started) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void it_exits_at_once_after_a_child_that_made_no_connection() throws Exception {
        assertPromptExit("echo done");
    }

    @Test
    void it_exits_at_once_after_a_child_whose_connection_went_through_and_closed() throws Exception {
        assertPromptExit("python3 -c \"" + CONNECT + "\" && echo done");
    }

    @Test
    void it_exits_at_once_while_a_descendant_still_holds_a_connection() throws Exception {
        Path pid = dir.resolve("holder.pid");
        Path up = dir.resolve("holder.up");
        // A process the child leaves behind (in a view, bubblewrap's pid namespace ends it with the forwarder).
        assertPromptExit(
                "python3 -c \"" + CONNECT + "; import os, time; open('" + pid + "', 'w').write(str(os.getpid()));"
                        + " open('" + up + "', 'w').write('up'); time.sleep(60)\" </dev/null >/dev/null 2>&1 &"
                        + " while [ ! -e " + up + " ]; do sleep 0.01; done; echo done");
        ProcessHandle.of(Long.parseLong(Files.readString(pid).strip())).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Connects through the forwarder to the stand-in relay, sends {@code ping} and reads its answer (Python). */
    private static final String CONNECT = "import os, socket; c = socket.create_connection(('127.0.0.1',"
            + " int(os.environ['PORT']))); c.sendall(b'ping'); assert c.recv(4) == b'pong'";

    /**
     * Runs the forwarder around {@code sh -c script} (which ends by printing {@code done}) three times; the fastest
     * exit after {@code done} is prompt. The slowest would say more about the machine's load than about the forwarder.
     */
    private void assertPromptExit(String script) throws Exception {
        long fastest = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            int port = freePort();
            ProcessBuilder builder = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:+UseSerialGC",
                    "-Xmx32m",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:-UsePerfData",
                    "-cp",
                    Path.of(EgressForwarder.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI())
                            .toString(),
                    EgressForwarder.class.getName(),
                    socket.toString(),
                    Integer.toString(port),
                    "--",
                    "/bin/sh",
                    "-c",
                    script);
            builder.environment().put("PORT", Integer.toString(port));
            builder.redirectError(ProcessBuilder.Redirect.DISCARD);
            Process forwarder = builder.start();
            started.add(forwarder);
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(forwarder.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("done", out.readLine());
            long done = System.nanoTime();
            assertTrue(forwarder.waitFor(30, TimeUnit.SECONDS));
            fastest = Math.min(fastest, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - done));
            assertEquals(0, forwarder.exitValue());
        }
        assertTrue(
                fastest < PROMPT_EXIT_MILLIS, "the forwarder took " + fastest + " ms at best to exit after its child");
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
