package org.acme.subscriber.test.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;

/**
 * Stream subscriptions as an application sees them, the same on RabbitMQ's stream protocol and on the in-process
 * broker: the log read in order (one message at a time unless concurrency says otherwise), a retry run again in place with the
 * order held (same offset, nothing passing it),
 * the cap and a deadLetter each a confirmed copy in the dead-letter queue, a filter that hands the handler its
 * values' messages only, and a super stream that keeps the order of each key.
 */
abstract class StreamScenarios {

    static final Class<?>[] APPLICATION = { Handlers.class };

    @Inject
    Handlers handlers;

    @Inject
    RabbitPublisher publisher;

    /** Waits until the condition holds: the in-process broker idle, or the wire within a deadline. */
    abstract void until(BooleanSupplier condition);

    /** How many messages wait in the queue. */
    abstract long depth(String queue);

    void send(String stream, String body) {
        publisher.sendConfirmed(stream, body).await().atMost(Duration.ofSeconds(10));
    }

    @Test
    void theLogIsReadInOrderAndARetryRunsAgainInPlace() {
        send("t.stream.orders", "retry-twice");
        send("t.stream.orders", "after");
        until(() -> handlers.bodies("t.stream.orders").contains("after"));
        List<String> lines = handlers.log.stream()
                .filter(line -> line.startsWith("retry-twice|") || line.startsWith("after|")).toList();
        assertEquals(List.of("retry-twice|1", "retry-twice|2", "retry-twice|3", "after|1"),
                lines.stream().map(line -> line.substring(0, line.lastIndexOf('|'))).toList(),
                "the log's order held across the retries in place");
        List<Long> offsets = lines.stream().map(line -> Long.parseLong(line.substring(line.lastIndexOf('|') + 1)))
                .toList();
        assertEquals(offsets.get(0), offsets.get(2), "a retry in place is the same message, at the same offset");
        assertTrue(offsets.get(2) < offsets.get(3), offsets::toString);
    }

    @Test
    void theCapAndADeadLetterAreConfirmedCopiesInTheDeadLetterQueue() {
        send("t.stream.orders", "poison");
        send("t.stream.orders", "dead-letter");
        until(() -> depth("t.stream.orders.dead") == 2);
        assertEquals(List.of("poison|1", "poison|2", "poison|3"), handlers.log.stream()
                .filter(line -> line.startsWith("poison|")).map(line -> line.substring(0, line.lastIndexOf('|'))).toList(),
                "three attempts in place, then the dead letter");
        assertEquals(1, handlers.log.stream().filter(line -> line.startsWith("dead-letter|")).count(),
                "a deadLetter outcome is not retried");
    }

    @Test
    void aFilterReadsOnlyItsValues() {
        for (String[] message : new String[][] { { "eu-1", "eu" }, { "us-1", "us" }, { "none-1", null },
                { "eu-2", "eu" } }) {
            OutgoingMessage outgoing = OutgoingMessage.toQueue("t.stream.regions").payload(message[0]);
            publisher.sendConfirmed(message[1] == null ? outgoing : outgoing.filterValue(message[1])).await()
                    .atMost(Duration.ofSeconds(10));
        }
        until(() -> handlers.regions.size() >= 2);
        assertEquals(List.of("eu-1", "eu-2"), handlers.regions,
                "another value's messages and those without one are dropped before the handler");
    }

    @Test
    void aSuperStreamKeepsTheOrderOfEachKey() {
        int accounts = 8;
        int each = 5;
        for (int seq = 1; seq <= each; seq++) {
            for (int account = 0; account < accounts; account++) {
                publisher.sendToPartitionConfirmed("t.stream.invoices", "acct-" + account, "invoice-" + seq).await()
                        .atMost(Duration.ofSeconds(10));
            }
        }
        until(() -> handlers.invoices.size() >= accounts * each);
        for (int account = 0; account < accounts; account++) {
            String key = "acct-" + account;
            assertEquals(java.util.stream.IntStream.rangeClosed(1, each).mapToObj(seq -> key + ":invoice-" + seq).toList(),
                    handlers.invoices.stream().filter(line -> line.startsWith(key + ":")).toList(),
                    "each key's messages in the order sent, through its partition");
        }
        assertEquals(accounts * each, handlers.invoices.size(), "each once");
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<String> regions = new CopyOnWriteArrayList<>();
        final List<String> invoices = new CopyOnWriteArrayList<>();
        final List<String> replaced = new CopyOnWriteArrayList<>();

        @Subscriber(value = "t.stream.replaced", type = QueueType.STREAM)
        void replaced(String body) {
            replaced.add(body);
        }

        @Subscriber(value = "t.stream.invoices", type = QueueType.STREAM, partitions = 3, partitionKey = "header:account", offset = "first")
        void invoice(String body, Delivery delivery) {
            invoices.add(delivery.header("account") + ":" + body);
        }

        List<String> bodies(String stream) {
            return log.stream().map(line -> line.substring(0, line.indexOf('|'))).toList();
        }

        @Subscriber(value = "t.stream.orders", type = QueueType.STREAM, offset = "first", maxAttempts = 3, deadLetter = "t.stream.orders.dead")
        Outcome on(String body, Delivery delivery) {
            log.add(body + "|" + delivery.attempt() + "|" + delivery.offset());
            return switch (body) {
                case "retry-twice" -> delivery.attempt() < 3 ? Outcome.retry() : Outcome.ack();
                case "poison" -> Outcome.retry();
                case "dead-letter" -> Outcome.deadLetter("refused by the test");
                default -> Outcome.ack();
            };
        }

        @Subscriber(value = "t.stream.regions", type = QueueType.STREAM, offset = "first", filter = "eu")
        void region(String body) {
            regions.add(body);
        }
    }
}
