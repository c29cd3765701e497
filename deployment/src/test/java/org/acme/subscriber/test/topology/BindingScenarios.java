package org.acme.subscriber.test.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;

/**
 * The subscriber scenarios on queues bound to exchanges, written once and run on each broker: retries to a cap, dead
 * letters and delays of messages that came through a topic exchange keep the original's exchange and routing key;
 * fanout, headers and RabbitMQ's own {@code amq.topic} route as RabbitMQ does; queue arguments are declared.
 */
abstract class BindingScenarios extends BrokerScenarios {

    static final String PAYMENTS = "t.bound.payments";
    static final String EVENTS = "t.bound.events";
    static final String MATCH = "t.bound.match";
    static final String REFUNDS = "t.bound.refunds";
    static final String DELAYED = "t.bound.delayed";
    static final String QUORUM = "t.bound.quorum";
    static final String HELD = "t.bound.held";
    static final String AUDIT = "t.bound.audit";
    static final String MAILER = "t.bound.mailer";
    static final String MATCHED = "t.bound.matched";
    static final String TOPIC = "t.bound.amq";
    static final String CAPPED = "t.bound.capped";
    static final String[] QUEUES = { REFUNDS, REFUNDS + ".dead", DELAYED, DELAYED + ".dead", DELAYED + ".retry",
            QUORUM, QUORUM + ".dead", HELD, HELD + ".dead", AUDIT, MAILER, MATCHED, TOPIC, CAPPED };
    static final String[] EXCHANGES = { PAYMENTS, EVENTS, MATCH };

    static final Class<?>[] APPLICATION = { Handlers.class };

    @Inject
    Handlers handlers;

    /** Lets time pass: a real wait on RabbitMQ (until covers it), the paused clock advanced in process. */
    abstract void elapse(Duration duration);

    void publishTo(String exchange, String routingKey, String body, Map<String, Object> headers) throws Exception {
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.publish(exchange, routingKey, false, new AMQP.BasicProperties.Builder()
                    .messageId(body).headers(headers).build(), body.getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aRefundThroughATopicExchangeIsRetriedToTheCapWithItsRoutingKeyThenDeadLettered() throws Exception {
        publishTo(PAYMENTS, "refund.card", "topic-retry", Map.of());
        until(() -> depth(REFUNDS + ".dead") == 1);
        assertEquals(List.of("t.bound.payments refund.card 1", "t.bound.payments refund.card 2",
                "t.bound.payments refund.card 3"), handlers.seen("topic-retry"));
        Fetched dead = drain(REFUNDS + ".dead").get(0);
        assertEquals("topic-retry", body(dead));
        assertEquals(PAYMENTS, String.valueOf(header(dead, Delivery.ORIGINAL_EXCHANGE_HEADER)));
        assertEquals("refund.card", String.valueOf(header(dead, Delivery.ORIGINAL_ROUTING_KEY_HEADER)));
        assertEquals(3, ((Number) header(dead, "x-retry-count")).intValue());
    }

    @Test
    void aKeyTheBindingDoesNotMatchReachesNoQueue() throws Exception {
        publishTo(PAYMENTS, "payout.card", "topic-unmatched", Map.of());
        publishTo(PAYMENTS, "refund.card", "topic-matched", Map.of());
        until(() -> handlers.seen("topic-matched").size() == 1);
        assertEquals(List.of(), handlers.seen("topic-unmatched"));
    }

    @Test
    void aDelayedRetryWaitsInItsQueueAndComesBackWithTheOriginalsRoutingKey() throws Exception {
        publishTo(PAYMENTS, "delayed.eu.card", "topic-delayed", Map.of());
        until(() -> handlers.seen("topic-delayed").size() == 1);
        elapse(Duration.ofSeconds(1));
        until(() -> handlers.seen("topic-delayed").size() == 2);
        assertEquals(List.of("t.bound.payments delayed.eu.card 1", "t.bound.payments delayed.eu.card 2"),
                handlers.seen("topic-delayed"));
        until(() -> depth(DELAYED) == 0 && depth(DELAYED + ".retry") == 0);
    }

    @Test
    void aRetryHeldInTheServiceComesBackWithTheOriginalsRoutingKey() throws Exception {
        publishTo(PAYMENTS, "held.card", "topic-held", Map.of());
        until(() -> handlers.seen("topic-held").size() == 1);
        elapse(Duration.ofSeconds(1));
        until(() -> handlers.seen("topic-held").size() == 2);
        assertEquals(List.of("t.bound.payments held.card 1", "t.bound.payments held.card 2"),
                handlers.seen("topic-held"));
    }

    @Test
    void aQuorumQueueBoundToAnExchangeDeadLettersAtItsLimit() throws Exception {
        publishTo(PAYMENTS, "quorum.card", "topic-quorum", Map.of());
        until(() -> depth(QUORUM + ".dead") == 1);
        assertEquals(3, handlers.seen("topic-quorum").size());
        assertEquals("t.bound.payments quorum.card 1", handlers.seen("topic-quorum").get(0));
        assertEquals("topic-quorum", body(drain(QUORUM + ".dead").get(0)));
    }

    @Test
    void aFanoutExchangeReachesEveryBoundQueueWhateverTheKey() throws Exception {
        publishTo(EVENTS, "anything", "fanout-event", Map.of());
        until(() -> handlers.seen("fanout-event").size() == 2);
        assertEquals(List.of("t.bound.events anything 1 " + AUDIT, "t.bound.events anything 1 " + MAILER),
                handlers.seen("fanout-event").stream().sorted().toList());
    }

    @Test
    void aHeadersExchangeRoutesOnlyWhatMatchesAll() throws Exception {
        publishTo(MATCH, "", "headers-refund", Map.of("kind", "refund", "region", "eu"));
        publishTo(MATCH, "", "headers-payout", Map.of("kind", "payout", "region", "eu"));
        publishTo(MATCH, "", "headers-partial", Map.of("kind", "refund"));
        publishTo(MATCH, "", "headers-last", Map.of("kind", "refund", "region", "eu"));
        until(() -> handlers.seen("headers-last").size() == 1);
        assertEquals(1, handlers.seen("headers-refund").size());
        assertEquals(List.of(), handlers.seen("headers-payout"));
        assertEquals(List.of(), handlers.seen("headers-partial"));
    }

    @Test
    void rabbitMqsOwnTopicExchangeIsBoundNotDeclared() throws Exception {
        publishTo("amq.topic", "t.bound.amq.created", "amq-topic", Map.of());
        until(() -> handlers.seen("amq-topic").size() == 1);
        assertEquals("amq.topic t.bound.amq.created 1", handlers.seen("amq-topic").get(0));
    }

    @Test
    void theQueueIsDeclaredWithItsArguments() throws Exception {
        // RabbitMQ accepts a redeclaration only with the arguments the queue has.
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.declareQueue(CAPPED, true, false, false, Map.of("x-max-length", 100000L, "x-overflow",
                    "reject-publish", "x-single-active-consumer", true));
        }
        publish(CAPPED, "capped");
        until(() -> handlers.seen("capped").size() == 1);
    }

    @ApplicationScoped
    public static class Handlers {
        private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

        List<String> seen(String id) {
            return seen.getOrDefault(id, List.of());
        }

        private void record(String body, Delivery delivery, String... more) {
            String line = delivery.exchange() + " " + delivery.routingKey() + " " + delivery.attempt()
                    + (more.length == 0 ? "" : " " + String.join(" ", more));
            seen.computeIfAbsent(body, id -> new CopyOnWriteArrayList<>()).add(line);
        }

        @Subscriber(value = REFUNDS, maxAttempts = 3, deadLetter = REFUNDS
                + ".dead", bindings = @Binding(exchange = PAYMENTS, keys = "refund.*"))
        Outcome refund(String body, Delivery delivery) {
            record(body, delivery);
            return body.endsWith("retry") ? Outcome.retry() : Outcome.ack();
        }

        @Subscriber(value = DELAYED, maxAttempts = 3, deadLetter = DELAYED
                + ".dead", delay = Delay.DLX_TTL, bindings = @Binding(exchange = PAYMENTS, type = ExchangeType.TOPIC, keys = {
                        "delayed.#" }))
        Outcome delayed(String body, Delivery delivery) {
            record(body, delivery);
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(500)) : Outcome.ack();
        }

        @Subscriber(value = HELD, maxAttempts = 3, deadLetter = HELD
                + ".dead", bindings = @Binding(exchange = PAYMENTS, keys = "held.*"))
        Outcome held(String body, Delivery delivery) {
            record(body, delivery);
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(500)) : Outcome.ack();
        }

        @Subscriber(value = QUORUM, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = QUORUM
                + ".dead", bindings = @Binding(exchange = PAYMENTS, keys = "quorum.*"))
        Outcome quorum(String body, Delivery delivery) {
            record(body, delivery);
            return Outcome.retry();
        }

        @Subscriber(value = AUDIT, bindings = @Binding(exchange = EVENTS, type = ExchangeType.FANOUT))
        void audit(String body, Delivery delivery) {
            record(body, delivery, AUDIT);
        }

        @Subscriber(value = MAILER, bindings = @Binding(exchange = EVENTS, type = ExchangeType.FANOUT))
        void mailer(String body, Delivery delivery) {
            record(body, delivery, MAILER);
        }

        @Subscriber(value = MATCHED, bindings = @Binding(exchange = MATCH, type = ExchangeType.HEADERS, arguments = {
                "x-match=all", "kind=refund", "region=eu" }))
        void matched(String body, Delivery delivery) {
            record(body, delivery);
        }

        @Subscriber(value = TOPIC, bindings = @Binding(exchange = "amq.topic", keys = "t.bound.amq.#"))
        void topic(String body, Delivery delivery) {
            record(body, delivery);
        }

        @Subscriber(value = CAPPED, arguments = { "x-max-length=100000", "x-overflow=reject-publish",
                "x-single-active-consumer=true" })
        void capped(String body, Delivery delivery) {
            record(body, delivery);
        }
    }
}
