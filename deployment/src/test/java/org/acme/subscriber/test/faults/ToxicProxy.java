package org.acme.subscriber.test.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in the test's JVM between the application and RabbitMQ, for faults {@code rabbitmqctl} cannot make:
 * {@link #stallThenReset} stops forwarding bytes for a while (a network that hangs), then resets every connection
 * (RST, not a clean close). New connections are accepted again at once. {@link #stallOpenConnections} stops forwarding
 * on the connections open now, for good, without closing anything (a half-open connection); new ones flow.
 */
final class ToxicProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** Sockets whose bytes are read and dropped: a path that carries nothing, though both ends are open. */
    private final java.util.Set<Socket> stalled = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Open (count 0) while bytes flow; a stall swaps in a closed one, which the reset opens again. */
    private volatile java.util.concurrent.CountDownLatch flowing = new java.util.concurrent.CountDownLatch(0);
    private final java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors
            .newSingleThreadScheduledExecutor(runnable -> {
                Thread thread = new Thread(runnable, "toxic-proxy-timer");
                thread.setDaemon(true);
                return thread;
            });

    private ToxicProxy(int targetPort) throws IOException {
        this(InetAddress.getLoopbackAddress(), targetPort);
    }

    private ToxicProxy(InetAddress address, int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, address);
        Thread acceptor = new Thread(this::accept, "toxic-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * A proxy that only forwards, listening on {@code address} (another interface than the loopback, say), to RabbitMQ
     * on {@code targetPort} of the loopback. Closed with the JVM.
     */
    static int forwarding(InetAddress address, int targetPort) {
        try {
            return new ToxicProxy(address, targetPort).server.getLocalPort();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final String KEY = "org.acme.toxic-proxy";

    /**
     * The proxy to {@code targetPort}, one per JVM: the test class is loaded twice (by JUnit, which builds the
     * configuration with the proxy's port, and by Quarkus, which runs the test), so the proxy is kept where both
     * loads see it, behind JDK types only.
     */
    @SuppressWarnings("unchecked")
    static synchronized Handle shared(int targetPort) {
        Object existing = System.getProperties().get(KEY);
        if (existing instanceof Object[] parts) {
            return new Handle((Integer) parts[0], (java.util.function.Consumer<Duration>) parts[1], (Runnable) parts[2],
                    (Runnable) parts[3]);
        }
        try {
            ToxicProxy proxy = new ToxicProxy(targetPort);
            java.util.function.Consumer<Duration> fault = stall -> {
                try {
                    proxy.stallThenReset(stall);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            };
            Runnable close = () -> {
                proxy.close();
                System.getProperties().remove(KEY);
            };
            Runnable stall = proxy::stallOpenConnections;
            System.getProperties().put(KEY, new Object[] { proxy.port(), fault, close, stall });
            return new Handle(proxy.port(), fault, close, stall);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the test uses of the shared proxy. */
    record Handle(int port, java.util.function.Consumer<Duration> stallThenReset, Runnable close,
            Runnable stallOpenConnections) {
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                sockets.add(client);
                sockets.add(upstream);
                pump(client, upstream, "toxic-proxy-up");
                pump(upstream, client, "toxic-proxy-down");
            } catch (IOException e) {
                // closed, or RabbitMQ refused: the client sees its connection fail
            }
        }
    }

    private void pump(Socket from, Socket to, String name) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    // Held here during a stall; the reset closes the sockets, so the write below then fails.
                    flowing.await();
                    if (stalled.contains(from)) {
                        continue;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // reset or closed
            } finally {
                close(from);
                // A stalled connection's other end stays open when this one closes (the broker gave up on it): a
                // half-open connection is found only by its own end, by heartbeats.
                if (!stalled.contains(from) && !stalled.contains(to)) {
                    close(to);
                }
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Holds every byte for {@code stall}, then resets every connection through the proxy; returns after the reset. */
    void stallThenReset(Duration stall) throws InterruptedException {
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        flowing = held;
        try {
            timer.schedule(this::reset, stall.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            held.countDown();
        }
    }

    /** From now on the connections open now carry nothing either way; nothing is closed. */
    void stallOpenConnections() {
        stalled.addAll(sockets);
    }

    private void reset() {
        for (Socket socket : sockets) {
            try {
                socket.setSoLinger(true, 0);
            } catch (IOException e) {
                // already gone
            }
            close(socket);
        }
        sockets.clear();
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to do
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            server.close();
        } catch (IOException e) {
            // nothing left to do
        }
        sockets.forEach(ToxicProxy::close);
    }
}
