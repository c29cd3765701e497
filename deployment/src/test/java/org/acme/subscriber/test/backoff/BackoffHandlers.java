package org.acme.subscriber.test.backoff;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * Handlers that fail under a back-off of 10 s, then 30 s, then 60 s (the bound): on the in-process broker's paused clock
 * as written, on RabbitMQ shortened by configuration ({@code queues."<queue>".backoff.*}). Each records the retry count
 * and the time of every delivery. A body {@code retry:...} answers {@code Outcome.retry()} instead of failing.
 */
@ApplicationScoped
public class BackoffHandlers {

    static final String IN_SERVICE = "bo.inservice";
    static final String WAITING = "bo.waiting";
    static final String QUORUM = "bo.quorum";
    static final String[] QUEUES = { IN_SERVICE, IN_SERVICE + ".dead", WAITING, WAITING + ".dead", WAITING + ".retry",
            QUORUM, QUORUM + ".dead" };

    final Map<String, List<Integer>> attempts = new ConcurrentHashMap<>();
    final Map<String, List<Long>> times = new ConcurrentHashMap<>();

    List<Integer> attempts(String body) {
        return attempts.getOrDefault(body, List.of());
    }

    List<Long> times(String body) {
        return times.getOrDefault(body, List.of());
    }

    // Waits of 10 s, 30 s, then 60 s (90 s bounded): 4 attempts, the last one dead-lettered.
    @Subscriber(value = IN_SERVICE, maxAttempts = 4, deadLetter = IN_SERVICE
            + ".dead", backoff = @Backoff(initial = "10s", multiplier = 3, max = "60s"))
    Outcome inService(String body, Delivery delivery) {
        return fail(body, delivery);
    }

    @Subscriber(value = WAITING, maxAttempts = 4, deadLetter = WAITING
            + ".dead", delay = Delay.DLX_TTL, backoff = @Backoff(initial = "10s", multiplier = 3, max = "60s"))
    Outcome waiting(String body, Delivery delivery) {
        return fail(body, delivery);
    }

    @Subscriber(value = QUORUM, type = QueueType.QUORUM, maxAttempts = 4, deadLetter = QUORUM
            + ".dead", backoff = @Backoff(initial = "10s", multiplier = 3, max = "60s"))
    Outcome quorum(String body, Delivery delivery) {
        return fail(body, delivery);
    }

    private Outcome fail(String body, Delivery delivery) {
        attempts.computeIfAbsent(body, ignored -> new CopyOnWriteArrayList<>()).add(delivery.attempt());
        times.computeIfAbsent(body, ignored -> new CopyOnWriteArrayList<>()).add(System.nanoTime());
        if (body.startsWith("retry:")) {
            return delivery.attempt() < 2 ? Outcome.retry() : Outcome.ack();
        }
        throw new IllegalStateException("the payment service is down for " + body);
    }
}
