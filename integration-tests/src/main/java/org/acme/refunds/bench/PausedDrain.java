package org.acme.refunds.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.acme.refunds.Refund;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.smallrye.mutiny.Uni;

/**
 * The database benchmarks' drain (InboxCost, BatchCost): fills a paused subscriber's queue with refunds, then times
 * its drain from the resume to the last message handled; and the median of their rounds.
 */
final class PausedDrain {

    private PausedDrain() {
    }

    /** Microseconds per message; {@code handled} counts what the subscriber handled, reset here. */
    static double micros(Subscriptions subscriptions, RabbitPublisher publisher, String queue, int messages,
            AtomicInteger handled) throws Exception {
        subscriptions.pause(queue);
        handled.set(0);
        List<Uni<Void>> sends = new ArrayList<>(messages);
        for (int i = 0; i < messages; i++) {
            sends.add(publisher.sendConfirmed(OutgoingMessage.toQueue(queue).payload(new Refund(i, "4242", 100))));
        }
        Uni.join().all(sends).andFailFast().await().atMost(Duration.ofMinutes(2));
        long started = System.nanoTime();
        subscriptions.resume(queue);
        while (handled.get() < messages) {
            Thread.sleep(1);
        }
        return (System.nanoTime() - started) / 1000.0 / messages;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
