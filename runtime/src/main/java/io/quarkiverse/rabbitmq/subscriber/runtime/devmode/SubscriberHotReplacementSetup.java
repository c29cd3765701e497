package io.quarkiverse.rabbitmq.subscriber.runtime.devmode;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.jboss.logging.Logger;

import io.quarkus.dev.spi.HotReplacementContext;
import io.quarkus.dev.spi.HotReplacementSetup;

/**
 * Makes a delivery trigger dev mode's hot-reload scan, as an HTTP request does, so an application that only consumes
 * messages reloads too. A scan runs at most once every two seconds, on a thread of its own (it restarts the
 * application, which stops the consumer that asked for it).
 */
public final class SubscriberHotReplacementSetup implements HotReplacementSetup {

    private static final Logger LOG = Logger.getLogger(SubscriberHotReplacementSetup.class);
    private static final long EVERY_MILLIS = 2000;

    private final ExecutorService scanner = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "rabbitmq-subscriber-reload-scan");
        thread.setDaemon(true);
        return thread;
    });
    private HotReplacementContext context;
    private long nextScan;
    private CompletableFuture<Boolean> running;

    @Override
    public void setupHotDeployment(HotReplacementContext context) {
        this.context = context;
        ReloadOnMessage.register(this::scan);
    }

    private synchronized CompletableFuture<Boolean> scan() {
        if (running != null && !running.isDone()) {
            return running;
        }
        // Wall time, not the runtime's clock: this paces scans of the files the developer edits, and Quarkus sets it up
        // (ServiceLoader) before any bean, the clock among them, exists.
        long now = System.currentTimeMillis();
        if (now < nextScan) {
            return CompletableFuture.completedFuture(false);
        }
        nextScan = now + EVERY_MILLIS;
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        // The new application's classes load through the caller's class loader.
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        scanner.execute(() -> {
            Thread.currentThread().setContextClassLoader(loader);
            try {
                boolean restarted = context.doScan(true);
                if (context.getDeploymentProblem() != null) {
                    LOG.error("The application could not be reloaded after a change", context.getDeploymentProblem());
                }
                result.complete(restarted);
            } catch (Throwable t) {
                LOG.error("The hot-reload scan a message triggered failed", t);
                result.complete(false);
            }
        });
        running = result;
        return result;
    }

    @Override
    public void close() {
        ReloadOnMessage.register(null);
        scanner.shutdown();
    }
}
