package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Dev mode only: each delivery asks for the hot-reload scan before its handler can run, so a change to a subscriber
 * takes effect on the next message, as it does on the next HTTP request. While a scan runs, deliveries wait here in
 * their order, then go on. If the scan restarted the application, the consumer they reach has stopped taking
 * deliveries, so they are left unsettled: the old channel is closed by then, RabbitMQ gives them to the new
 * application's consumer, and no old handler runs them.
 * <p>
 * The gate itself never drops a delivery: the scan's answer may belong to another generation (a new application's
 * first deliveries can wait on the scan that restarted into it). Dropping one here would leave it unacked on a channel
 * still in use, where a later {@code basic.ack multiple} would take it away unhandled.
 * <p>
 * Nothing here blocks the thread that delivers (the in-process broker delivers on its own thread, which the restart
 * needs to close the old channels).
 */
public final class ReloadGate {

    private final Supplier<CompletableFuture<Boolean>> scan;
    private final ArrayDeque<Runnable> held = new ArrayDeque<>();
    private boolean scanning;

    public ReloadGate(Supplier<CompletableFuture<Boolean>> scan) {
        this.scan = scan;
    }

    /** Runs {@code accept} now, or once the scan is over, in arrival order. */
    synchronized void admit(Runnable accept) {
        if (scanning) {
            held.add(accept);
            return;
        }
        CompletableFuture<Boolean> result = scan.get();
        if (result.isDone()) {
            accept.run();
            return;
        }
        scanning = true;
        held.add(accept);
        result.whenComplete((restarted, failure) -> scanned());
    }

    /** Accepting is cheap (a queue offer): done under the lock, so a delivery arriving now queues behind these. */
    private synchronized void scanned() {
        scanning = false;
        for (Runnable accept : held) {
            accept.run();
        }
        held.clear();
    }
}
