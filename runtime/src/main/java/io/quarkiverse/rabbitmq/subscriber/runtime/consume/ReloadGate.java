package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Dev mode only: each delivery asks for the hot-reload scan before its handler can run, so a change to a subscriber
 * takes effect on the next message, as it does on the next HTTP request. While a scan runs, deliveries wait here in
 * their order. If the scan restarted the application, they are left unsettled: the old channel is closed by then, so
 * RabbitMQ gives them to the new application's consumer, and no old handler runs them.
 * <p>
 * Nothing here blocks the thread that delivers (the in-process broker delivers on its own thread, which the restart
 * needs to close the old channels).
 */
final class ReloadGate {

    private final Supplier<CompletableFuture<Boolean>> scan;
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    private boolean scanning;

    ReloadGate(Supplier<CompletableFuture<Boolean>> scan) {
        this.scan = scan;
    }

    /** Runs {@code accept} now, or after the scan, in arrival order; never if the application restarted. */
    synchronized void admit(Runnable accept) {
        if (scanning) {
            held.add(accept);
            return;
        }
        CompletableFuture<Boolean> result = scan.get();
        if (result.isDone()) {
            if (!Boolean.TRUE.equals(result.getNow(false))) {
                accept.run();
            }
            return;
        }
        scanning = true;
        held.add(accept);
        result.whenComplete((restarted, failure) -> scanned(Boolean.TRUE.equals(restarted)));
    }

    /** Accepting is cheap (a queue offer): done under the lock, so a delivery arriving now queues behind these. */
    private synchronized void scanned(boolean restarted) {
        scanning = false;
        if (!restarted) {
            for (Runnable accept : held) {
                accept.run();
            }
        }
        held.clear();
    }
}
