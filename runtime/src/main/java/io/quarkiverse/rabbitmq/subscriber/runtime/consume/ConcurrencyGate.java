package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayDeque;
import java.util.function.BiConsumer;

import io.vertx.core.Context;

/**
 * {@code @Subscriber(concurrency = n)}: at most n deliveries in the handler at once; the others wait, in arrival
 * order, until one settles. Without a bound (0) every delivery the prefetch lets in starts at once. Event loop only.
 */
final class ConcurrencyGate {

    private final int concurrency;
    private final BiConsumer<Context, InboundDelivery> start;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    /** Deliveries started and not settled. */
    private int running;
    private boolean startingWaiting;

    private record Waiting(Context context, InboundDelivery delivery) {
    }

    /** @param start runs a delivery let through (it is counted as running by then) */
    ConcurrencyGate(int concurrency, BiConsumer<Context, InboundDelivery> start) {
        this.concurrency = concurrency;
        this.start = start;
    }

    /** A delivery arrived: it starts now, or waits for a place. */
    void arrived(Context context, InboundDelivery delivery) {
        if (concurrency > 0 && running >= concurrency) {
            waiting.add(new Waiting(context, delivery));
            return;
        }
        running++;
        start.accept(context, delivery);
    }

    /** A delivery that started without passing the gate (unbounded handlers off the loop start on arrival). */
    void startedElsewhere() {
        running++;
    }

    /**
     * A delivery settled: waiting ones may start. A delivery started here may settle at once and come back here: that
     * nested call only counts, and the loop below goes on, so a long line of waiting deliveries never deepens the
     * stack.
     */
    void released() {
        running--;
        if (startingWaiting) {
            return;
        }
        startingWaiting = true;
        try {
            Waiting next;
            while (running < concurrency && (next = waiting.poll()) != null) {
                running++;
                start.accept(next.context(), next.delivery());
            }
        } finally {
            startingWaiting = false;
        }
    }

    int running() {
        return running;
    }

    int waiting() {
        return waiting.size();
    }
}
