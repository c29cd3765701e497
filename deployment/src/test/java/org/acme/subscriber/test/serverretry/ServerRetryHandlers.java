package org.acme.subscriber.test.serverretry;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryDelay;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * A payout service whose bank is down, on a quorum queue with the server's own delayed retry (RabbitMQ 4.3): capped at
 * 5 deliveries with a dead-letter queue, the server waiting 10 s after the first failure, 20 s after the second, ...,
 * never more than 30 s (shortened by configuration on RabbitMQ). The first delivery asks for {@code retryAfter} an
 * hour: the server's wait applies all the same. Records each delivery's attempt and time.
 */
@ApplicationScoped
public class ServerRetryHandlers {

    static final String QUEUE = "srd.payouts";
    static final String[] QUEUES = { QUEUE, QUEUE + ".dead", QUEUE + ".retry" };

    private final List<Integer> attempts = new CopyOnWriteArrayList<>();
    private final List<Long> times = new CopyOnWriteArrayList<>();

    /** Each delivery's attempt; read through the bean's proxy, so a method. */
    List<Integer> attempts() {
        return attempts;
    }

    /** When each delivery came ({@code System.nanoTime()}). */
    List<Long> times() {
        return times;
    }

    @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = QUEUE
            + ".dead", retryDelay = @RetryDelay(min = "10s", max = "30s"))
    Outcome payout(String body, Delivery delivery) {
        // On a quorum queue the server counts: the attempt is the retry count plus its x-delivery-count.
        int attempt = delivery.attempt() + delivery.redeliveryCount().orElse(0);
        attempts.add(attempt);
        times.add(System.nanoTime());
        if (attempt == 1) {
            return Outcome.retryAfter(Duration.ofHours(1));
        }
        throw new IllegalStateException("the bank is down for " + body);
    }
}
