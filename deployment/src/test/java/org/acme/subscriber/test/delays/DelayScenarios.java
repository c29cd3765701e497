package org.acme.subscriber.test.delays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;

/**
 * The delayed-retry scenarios, written once: each subclass runs them on one broker (the real RabbitMQ with delays of a
 * few hundred milliseconds, the in-process one with its paused clock), and both must pass. A message's body says what
 * its handler answers: {@code <name>:<delay in ms>:once} asks for one delayed retry then acks, {@code :always} keeps
 * asking until the cap ends it.
 */
abstract class DelayScenarios extends BrokerScenarios {

    static final String TTL = "ds.ttl";
    static final String TTL_DEAD = "ds.ttl.dead";
    static final String TTL_WAITING = "ds.ttl.retry";
    static final String PER_DELAY = "ds.perdelay";
    static final String PER_DELAY_DEAD = "ds.perdelay.dead";
    static final String IN_SERVICE = "ds.inservice";
    static final String IN_SERVICE_DEAD = "ds.inservice.dead";
    static final String QUORUM = "ds.quorum";
    static final String QUORUM_DEAD = "ds.quorum.dead";
    static final String REFUNDS = "ds.refunds";
    static final String REFUNDS_DEAD = "ds.refunds.dead";
    static final String[] QUEUES = { TTL, TTL_DEAD, TTL_WAITING, PER_DELAY, PER_DELAY_DEAD, "ds.perdelay.retry.300ms",
            "ds.perdelay.retry.1s", "ds.perdelay.retry.30s", "ds.perdelay.retry.1m", IN_SERVICE, IN_SERVICE_DEAD,
            QUORUM, QUORUM_DEAD, "ds.quorum.retry", REFUNDS, REFUNDS_DEAD, "ds.refunds.retry" };

    @Inject
    Handlers handlers;

    /** Lets this much time pass: the in-process broker's paused clock moves; on RabbitMQ the wall clock does it. */
    abstract void waitOut(Duration delay);

    /** The delay scenarios on this broker use: short on RabbitMQ, long on the paused clock (it costs nothing). */
    abstract Duration shortDelay();

    @Test
    void aDelayedRetryWaitsInTheWaitingQueueAndComesBackWithTheCountRaised() throws Exception {
        String body = "ttl-once:" + shortDelay().toMillis() + ":once";
        publish(TTL, body);
        until(() -> handlers.attempts(body).size() == 1);
        waitOut(shortDelay());
        until(() -> handlers.attempts(body).size() == 2 && depth(TTL) == 0);
        assertEquals(List.of(1, 2), handlers.attempts(body));
        assertEquals(List.of("none", "expired@" + TTL_WAITING), handlers.deaths(body),
                "the copy came back from the waiting queue, dead-lettered when it expired");
        assertEquals(0, depth(TTL_WAITING));
        assertEquals(0, depth(TTL_DEAD));
    }

    @Test
    void aDelayedRetryWaitsInTheQueueOfItsDelay() throws Exception {
        String body = "per-delay-once:" + shortDelay().toMillis() + ":once";
        publish(PER_DELAY, body);
        until(() -> handlers.attempts(body).size() == 1);
        waitOut(shortDelay());
        until(() -> handlers.attempts(body).size() == 2 && depth(PER_DELAY) == 0);
        assertEquals(List.of(1, 2), handlers.attempts(body));
        String waitedIn = PER_DELAY + ".retry." + (shortDelay().toMillis() == 300 ? "300ms" : "30s");
        assertEquals(List.of("none", "expired@" + waitedIn), handlers.deaths(body));
    }

    @Test
    void anInServiceDelayedRetryComesBackWithTheCountRaised() throws Exception {
        String body = "in-service-once:" + shortDelay().toMillis() + ":once";
        publish(IN_SERVICE, body);
        until(() -> handlers.attempts(body).size() == 1);
        waitOut(shortDelay());
        until(() -> handlers.attempts(body).size() == 2 && depth(IN_SERVICE) == 0);
        assertEquals(List.of(1, 2), handlers.attempts(body));
        assertEquals(List.of("none", "none"), handlers.deaths(body), "held in the service: never dead-lettered");
    }

    @Test
    void theCapEndsADelayedLoopInTheDeadLetterQueue() throws Exception {
        for (String queue : List.of(TTL, PER_DELAY, IN_SERVICE)) {
            String body = queue + "-always:" + shortDelay().toMillis() + ":always";
            publish(queue, body);
            until(() -> handlers.attempts(body).size() == 1);
            waitOut(shortDelay());
            until(() -> handlers.attempts(body).size() == 2);
            waitOut(shortDelay());
            until(() -> depth(queue + ".dead") == 1);
            assertEquals(List.of(1, 2, 3), handlers.attempts(body), queue);
            Fetched dead = drain(queue + ".dead").get(0);
            assertEquals(body, body(dead));
            assertEquals(3, ((Number) header(dead, "x-retry-count")).intValue(), queue);
            assertNull(header(dead, "x-death"), "a runtime dead letter carries no x-death");
        }
    }

    /**
     * On a quorum queue a delayed copy is a new message the server counts from zero: the runtime adds the header's
     * count to the server's, so a mix of retry and retryAfter still gets exactly maxAttempts (4) deliveries.
     */
    @Test
    void aQuorumCapHoldsWhateverTheMixOfRetryAndRetryAfter() throws Exception {
        String body = "quorum-mix:" + shortDelay().toMillis() + ":mix";
        publish(QUORUM, body);
        // Deliveries 1 (retry), 2 (retryAfter), 3 (retry), 4 (dead-lettered by the runtime).
        until(() -> handlers.attempts(body).size() == 2);
        waitOut(shortDelay());
        until(() -> depth(QUORUM_DEAD) == 1);
        assertEquals(4, handlers.attempts(body).size(), () -> "deliveries: " + handlers.log);
        Fetched dead = drain(QUORUM_DEAD).get(0);
        assertEquals(4, ((Number) header(dead, "x-retry-count")).intValue());
        assertEquals(0, depth(QUORUM));
    }

    public static class Handlers {
        /** {@code body|retry count|x-death (reason@queue of the latest, or none)|x-delivery-count}, per delivery. */
        final List<String> log = new CopyOnWriteArrayList<>();

        List<Integer> attempts(String body) {
            return entries(body).stream().map(entry -> Integer.parseInt(entry[1])).toList();
        }

        List<String> deaths(String body) {
            return entries(body).stream().map(entry -> entry[2]).toList();
        }

        private List<String[]> entries(String body) {
            return log.stream().map(entry -> entry.split("\\|")).filter(entry -> entry[0].equals(body)).toList();
        }

        static Outcome answer(String body, Delivery delivery, List<String> log) {
            log.add(body + "|" + delivery.attempt() + "|" + death(delivery) + "|"
                    + delivery.redeliveryCount().orElse(0));
            String[] parts = body.split(":");
            Duration delay = Duration.ofMillis(Long.parseLong(parts[1]));
            return switch (parts[2]) {
                case "once" -> delivery.attempt() == 1 ? Outcome.retryAfter(delay) : Outcome.ack();
                case "mix" -> (delivery.attempt() + delivery.redeliveryCount().orElse(0)) % 2 == 1 ? Outcome.retry()
                        : Outcome.retryAfter(delay);
                default -> Outcome.retryAfter(delay);
            };
        }

        @SuppressWarnings("unchecked")
        static String death(Delivery delivery) {
            Object deaths = delivery.header("x-death");
            if (!(deaths instanceof List<?> list) || list.isEmpty()) {
                return "none";
            }
            Map<String, Object> latest = (Map<String, Object>) list.get(0);
            return latest.get("reason") + "@" + latest.get("queue");
        }

        @Subscriber(value = TTL, delay = Delay.DLX_TTL, maxAttempts = 3, deadLetter = TTL_DEAD)
        Outcome ttl(String body, Delivery delivery) {
            return answer(body, delivery, log);
        }

        @Subscriber(value = PER_DELAY, delay = Delay.DLX_TTL_PER_DELAY, delays = { "300ms", "1s", "30s",
                "60s" }, maxAttempts = 3, deadLetter = PER_DELAY_DEAD)
        Outcome perDelay(String body, Delivery delivery) {
            return answer(body, delivery, log);
        }

        @Subscriber(value = IN_SERVICE, maxAttempts = 3, deadLetter = IN_SERVICE_DEAD)
        Outcome inService(String body, Delivery delivery) {
            return answer(body, delivery, log);
        }

        @Subscriber(value = QUORUM, type = QueueType.QUORUM, delay = Delay.DLX_TTL, maxAttempts = 4, deadLetter = QUORUM_DEAD)
        Outcome quorum(String body, Delivery delivery) {
            return answer(body, delivery, log);
        }

        /** The seeds' refunds: a busy card processor is asked again in 30 seconds, five deliveries at most. */
        @Subscriber(value = REFUNDS, delay = Delay.DLX_TTL, maxAttempts = 5, deadLetter = REFUNDS_DEAD)
        Outcome refund(String body, Delivery delivery) {
            log.add(body + "|" + delivery.attempt() + "|" + death(delivery) + "|0");
            return body.startsWith("busy") ? Outcome.retryAfter(Duration.ofSeconds(30)) : Outcome.ack();
        }
    }
}
