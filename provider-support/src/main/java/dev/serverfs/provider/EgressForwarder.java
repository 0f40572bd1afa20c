package dev.serverfs.provider;

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

/**
 * The first process of a provider child's view, run on the JVM that serves (only the JDK and this class): it listens
 * on {@code 127.0.0.1:<port>} in the view's own network namespace, where nothing else is, and carries each connection
 * to the {@link EgressRelay}'s Unix socket bound into the view; then it runs the provider with the same standard
 * streams, environment and directory, and exits with its exit status. The provider finds it through {@code
 * HTTPS_PROXY}/{@code HTTP_PROXY}. It decides nothing: the relay on the host does.
 *
 * <p>{@code java -cp <this class's code source> dev.serverfs.provider.EgressForwarder <socket> <port> -- <argv...>}
 */
public final class EgressForwarder {
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
        Thread.ofPlatform().daemon().name("egress-forwarder").start(() -> accept(listener, socket));
        List<String> argv = Arrays.asList(args).subList(3, args.length);
        Process child = new ProcessBuilder(argv).inheritIO().start();
        System.exit(child.waitFor());
    }

    private static void accept(ServerSocket listener, Path socket) {
        while (true) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            Thread.ofVirtual().start(() -> carry(client, socket));
        }
    }

    private static void carry(Socket client, Path socket) {
        try (client;
                SocketChannel relay = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            relay.connect(UnixDomainSocketAddress.of(socket));
            InputStream relayIn = Channels.newInputStream(relay);
            OutputStream relayOut = Channels.newOutputStream(relay);
            Thread back = Thread.ofVirtual().start(() -> {
                try {
                    relayIn.transferTo(client.getOutputStream());
                } catch (IOException e) {
                    // closed
                } finally {
                    closeQuietly(client, relay);
                }
            });
            try {
                client.getInputStream().transferTo(relayOut);
            } catch (IOException e) {
                // closed
            } finally {
                closeQuietly(client, relay);
            }
            back.join();
        } catch (IOException e) {
            // the relay is gone: the connection just closes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket client, SocketChannel relay) {
        try {
            client.close();
        } catch (IOException e) {
            // already closed
        }
        try {
            relay.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
