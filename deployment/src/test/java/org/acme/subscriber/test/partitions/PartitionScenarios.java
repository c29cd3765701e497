package org.acme.subscriber.test.partitions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;

/**
 * Ordered partitions, written once and run on each broker: messages published by key through the partitions'
 * consistent-hash exchange are handled in the order of their key across retries, failures and delayed retries; a
 * message that keeps failing goes to the dead-letter queue at its cap and the next of its key follows it; the
 * exchange and the partition queues are declared with their arguments.
 */
abstract class PartitionScenarios extends BrokerScenarios {

    static final String LEDGER = "t.part.ledger";
    static final String ORDERS = "t.part.orders";
    static final int LEDGER_PARTITIONS = 8;
    static final int ORDERS_PARTITIONS = 4;
    static final String[] QUEUES;
    static final String[] EXCHANGES = { LEDGER, ORDERS, LEDGER + ".members", ORDERS + ".members" };

    static {
        List<String> queues = new ArrayList<>();
        for (int i = 0; i < LEDGER_PARTITIONS; i++) {
            queues.add(LEDGER + "." + i);
        }
        for (int i = 0; i < ORDERS_PARTITIONS; i++) {
            queues.add(ORDERS + "." + i);
        }
        queues.add(ORDERS + ".dead");
        QUEUES = queues.toArray(String[]::new);
    }

    static final Class<?>[] APPLICATION = { Handlers.class, Entry.class };

    @Inject
    Handlers handlers;

    @Inject
    RabbitPublisher publisher;

    /** Lets time pass: a real wait on RabbitMQ, the paused clock advanced in process. */
    abstract void elapse(Duration duration);

    public record Entry(String account, int seq) {
    }

    @Test
    void everyAccountsEntriesAreHandledInOrderThroughRetriesFailuresAndDelays() {
        int accounts = 20;
        int perAccount = 15;
        for (int seq = 0; seq < perAccount; seq++) {
            for (int a = 0; a < accounts; a++) {
                String account = "acct-" + a;
                publisher.sendToPartitionConfirmed(LEDGER, account, new Entry(account, seq)).await()
                        .atMost(Duration.ofSeconds(10));
            }
        }
        int total = accounts * perAccount;
        for (int i = 0; i < 40 && handlers.acked.size() < total; i++) {
            elapse(Duration.ofMillis(100));
            until(() -> true);
        }
        until(() -> handlers.acked.size() == total);
        Map<String, List<Integer>> byAccount = new ConcurrentHashMap<>();
        handlers.acked.forEach(entry -> byAccount.computeIfAbsent(entry.account(), k -> new ArrayList<>())
                .add(entry.seq()));
        for (Map.Entry<String, List<Integer>> account : byAccount.entrySet()) {
            List<Integer> expected = new ArrayList<>();
            for (int seq = 0; seq < perAccount; seq++) {
                expected.add(seq);
            }
            assertEquals(expected, account.getValue(), "the order " + account.getKey() + "'s entries were acked in");
        }
        assertEquals(accounts, byAccount.size());
        // No entry of an account was ever handled while an earlier one of it was still unsettled.
        assertEquals(List.of(), handlers.overtaken);
        assertTrue(handlers.partitionsUsed.size() >= 4, "partitions used: " + handlers.partitionsUsed);
        assertTrue(handlers.retriedAfterADelay > 0 && handlers.failedOnce > 0);
    }

    @Test
    void aMessageThatKeepsFailingIsDeadLetteredAtItsCapAndTheNextOfItsKeyFollowsIt() throws Exception {
        publisher.send(publisher.toPartition(ORDERS, "order-7").payload("poison")).await()
                .atMost(Duration.ofSeconds(10));
        publisher.send(publisher.toPartition(ORDERS, "order-7").payload("paid")).await()
                .atMost(Duration.ofSeconds(10));
        try {
            until(() -> handlers.orders.contains("paid 1"));
        } catch (AssertionError e) {
            throw new AssertionError(
                    "DEBUG " + handlers.orders + " dead " + depth(ORDERS + ".dead") + " q " + depth(ORDERS + ".2"), e);
        }
        assertEquals(List.of("poison 1", "poison 2", "poison 3", "paid 1"), handlers.orders);
        until(() -> depth(ORDERS + ".dead") == 1);
        assertEquals("poison", body(drain(ORDERS + ".dead").get(0)));
    }

    @Test
    void theExchangeAndThePartitionQueuesAreDeclaredWithTheirArguments() throws Exception {
        // RabbitMQ accepts a redeclaration only with the arguments the exchange or queue has.
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.declareExchange(LEDGER, "x-consistent-hash", true, false, Map.of("hash-header", "account"));
            channel.declareExchange(ORDERS, "x-consistent-hash", true, false, Map.of());
            for (int i = 0; i < LEDGER_PARTITIONS; i++) {
                channel.declareQueue(LEDGER + "." + i, true, false, false,
                        Map.of("x-single-active-consumer", true));
            }
            channel.declareQueue(ORDERS + ".0", true, false, false, Map.of("x-single-active-consumer", true,
                    "x-queue-type", "quorum", "x-delivery-limit", 2, "x-dead-letter-exchange", "",
                    "x-dead-letter-routing-key", ORDERS + ".dead", "x-dead-letter-strategy", "at-least-once",
                    "x-overflow", "reject-publish"));
        }
    }

    /** A singleton: no client proxy between the test and the fields it reads. */
    @Singleton
    public static class Handlers {
        final List<Entry> acked = new CopyOnWriteArrayList<>();
        final List<String> overtaken = new CopyOnWriteArrayList<>();
        final Set<String> partitionsUsed = ConcurrentHashMap.newKeySet();
        final Map<String, Integer> lastAcked = new ConcurrentHashMap<>();
        final List<String> orders = new CopyOnWriteArrayList<>();
        volatile int retriedAfterADelay;
        volatile int failedOnce;

        @Subscriber(value = LEDGER, partitions = LEDGER_PARTITIONS, partitionKey = "header:account")
        Outcome post(Entry entry, Delivery delivery) {
            partitionsUsed.add(delivery.queue());
            int previous = lastAcked.getOrDefault(entry.account(), -1);
            if (entry.seq() != previous + 1) {
                overtaken.add(entry + " handled after " + previous + " (attempt " + delivery.attempt() + ")");
            }
            if (entry.seq() % 5 == 1 && delivery.attempt() == 1) {
                retriedAfterADelay++;
                return Outcome.retryAfter(Duration.ofMillis(100));
            }
            if (entry.seq() % 7 == 3 && delivery.attempt() == 1) {
                failedOnce++;
                throw new IllegalStateException("the ledger is busy");
            }
            if (entry.seq() % 6 == 2 && delivery.attempt() == 1) {
                return Outcome.retry();
            }
            lastAcked.put(entry.account(), entry.seq());
            acked.add(entry);
            return Outcome.ack();
        }

        @Subscriber(value = ORDERS, partitions = ORDERS_PARTITIONS, type = QueueType.QUORUM, maxAttempts = 3, deadLetter = ORDERS
                + ".dead")
        void order(String event, Delivery delivery) {
            orders.add(event + " " + delivery.attempt());
            if (event.equals("poison")) {
                throw new IllegalArgumentException("this order cannot be read");
            }
        }
    }
}
