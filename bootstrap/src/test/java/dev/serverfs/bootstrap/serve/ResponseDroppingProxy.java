package dev.serverfs.bootstrap.serve;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-connection loopback TCP proxy that forwards the client's request to the server but drops the server's
 * response: it reads the response to its end (so the server did answer) and then closes the client connection
 * without writing a byte — the "response lost in transit" case of v0.7.3 §3.4.
 */
final class ResponseDroppingProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int upstreamPort;
    private final CountDownLatch dropped = new CountDownLatch(1);
    private volatile long droppedBytes;

    ResponseDroppingProxy(int upstreamPort) throws IOException {
        this.upstreamPort = upstreamPort;
        this.listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("dropping-proxy").start(this::serveOne);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Waits until the server's response was read and dropped; returns its size in bytes. */
    long awaitDropped(long seconds) throws InterruptedException {
        if (!dropped.await(seconds, TimeUnit.SECONDS)) {
            throw new AssertionError("the proxy saw no response");
        }
        return droppedBytes;
    }

    private void serveOne() {
        try (Socket client = listener.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), upstreamPort)) {
            Thread.ofPlatform().daemon().start(() -> {
                try {
                    client.getInputStream().transferTo(upstream.getOutputStream());
                } catch (IOException ignored) {
                    // the client side closes when the test is done
                }
            });
            InputStream fromServer = upstream.getInputStream();
            byte[] buffer = new byte[8192];
            long total = 0;
            // The server closes after its response only with "Connection: close", which the test sends.
            for (int n; (n = fromServer.read(buffer)) >= 0; ) {
                total += n;
            }
            droppedBytes = total;
            dropped.countDown();
        } catch (IOException ignored) {
            dropped.countDown();
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
