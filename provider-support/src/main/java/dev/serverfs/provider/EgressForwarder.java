package dev.serverfs.provider;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The first process of a provider child's view, run on the JVM that serves (only the JDK and this class): it listens
 * on {@code 127.0.0.1:<port>} in the view's own network namespace, where nothing else is, and carries each connection
 * to the {@link EgressRelay}'s Unix socket bound into the view; then it runs the provider with the same standard
 * streams, environment and directory, and exits with its exit status. The provider finds it through {@code
 * HTTPS_PROXY}/{@code HTTP_PROXY}. It decides nothing: the relay on the host does.
 *
 * <p>Its threads are platform threads, and everything they block on is closed once the provider exited: the JVM's
 * exit waits up to 300 ms for threads blocked in native code (HotSpot's {@code VM_Exit}), and a virtual thread's
 * socket I/O keeps a poller thread blocked in {@code epoll_wait} that nothing here could release. Every turn would pay
 * that wait (BENCHMARKS.md, "Provider view").
 *
 * <p>{@code java -cp <this class's code source> dev.serverfs.provider.EgressForwarder <socket> <port> -- <argv...>}
 */
public final class EgressForwarder {
    /** What the threads block on (the listener, both ends of each connection), closed before the exit. */
    private static final Set<Closeable> OPEN = ConcurrentHashMap.newKeySet();

    private static volatile boolean exiting;

    private EgressForwarder() {}

    public static void main(String[] args) throws Exception {
        int dashes = Arrays.asList(args).indexOf("--");
        if (dashes != 2 || args.length < 4) {
            System.err.println("usage: EgressForwarder <socket> <port> -- <argv...>");
            System.exit(2);
        }
        Path socket = Path.of(args[0]);
        ServerSocket listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), Integer.parseInt(args[1])), 64);
        hold(listener);
        Thread.ofPlatform().daemon().name("egress-forwarder").start(() -> accept(listener, socket));
        List<String> argv = Arrays.asList(args).subList(3, args.length);
        Process child = new ProcessBuilder(argv).inheritIO().start();
        int status = child.waitFor();
        exiting = true;
        for (Closeable c : OPEN) {
            closeQuietly(c);
        }
        System.exit(status);
    }

    /** Registers {@code c} to be closed before the exit; closes it at once when the exit already began. */
    private static void hold(Closeable c) {
        OPEN.add(c);
        if (exiting) {
            closeQuietly(c);
        }
    }

    private static void accept(ServerSocket listener, Path socket) {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            hold(client);
            Thread.ofPlatform().daemon().start(() -> carry(client, socket));
        }
    }

    private static void carry(Socket client, Path socket) {
        try (client;
                SocketChannel relay = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            hold(relay);
            try {
                relay.connect(UnixDomainSocketAddress.of(socket));
                copy(client, relay);
            } finally {
                OPEN.remove(relay);
            }
        } catch (IOException e) {
            // the relay is gone: the connection just closes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            OPEN.remove(client);
        }
    }

    /** Both directions until either ends; then both ends are closed. */
    private static void copy(Socket client, SocketChannel relay) throws IOException, InterruptedException {
        InputStream relayIn = Channels.newInputStream(relay);
        OutputStream relayOut = Channels.newOutputStream(relay);
        Thread back = Thread.ofPlatform().daemon().start(() -> {
            try {
                relayIn.transferTo(client.getOutputStream());
            } catch (IOException e) {
                // closed
            } finally {
                closeQuietly(client);
                closeQuietly(relay);
            }
        });
        try {
            client.getInputStream().transferTo(relayOut);
        } catch (IOException e) {
            // closed
        } finally {
            closeQuietly(client);
            closeQuietly(relay);
        }
        back.join();
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
