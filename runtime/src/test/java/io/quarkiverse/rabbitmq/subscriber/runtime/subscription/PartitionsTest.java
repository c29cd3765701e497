package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;

/**
 * A partitioned subscription is split into its partition queues, each handled one message at a time with single
 * active consumer; the topology plans the consistent-hash exchange with what it hashes and binds every partition with
 * the same weight; a message for the partitions carries its key where the exchange reads it.
 */
class PartitionsTest {

    static final SubscriptionSpec LEDGER = SubscriptionSpec.builder("ledger").type(QueueType.QUORUM).maxAttempts(3)
            .deadLetter("ledger.dead").partitions(3, "header:account-id").build();

    @Test
    void aPartitionedSubscriptionBecomesOneSubscriptionPerPartition() {
        SubscriptionSpec other = SubscriptionSpec.builder("refunds").build();
        List<SubscriptionSpec> split = Partitions.split(List.of(LEDGER, other));
        assertEquals(List.of("ledger.0", "ledger.1", "ledger.2", "refunds"),
                split.stream().map(subscription -> subscription.queue).toList());
        SubscriptionSpec second = split.get(1);
        assertEquals(1, second.concurrency);
        assertEquals(1, second.partitioning.index);
        assertEquals("ledger", second.partitioning.exchange);
        assertEquals("ledger.dead", second.deadLetter);
        assertEquals(true, second.queueArguments().get("x-single-active-consumer"));
        assertEquals(2, second.queueArguments().get("x-delivery-limit"));
        assertTrue(second.retriesInPlace());
        assertNull(split.get(3).partitioning);
        assertEquals(split, Partitions.split(split), "what is split stays as it is");
    }

    @Test
    void theTopologyHasTheExchangeWithWhatItHashesAndEveryPartitionBoundWithOneWeight() {
        TopologyPlan plan = TopologyPlan.of(List.of(LEDGER));
        TopologyPlan.ExchangePlan exchange = plan.exchanges.get(0);
        assertEquals("ledger", exchange.name);
        assertEquals("x-consistent-hash", exchange.type);
        assertEquals(Map.of("hash-header", "account-id"), exchange.arguments);
        assertEquals(List.of("ledger.0 1", "ledger.1 1", "ledger.2 1"), plan.bindings.stream()
                .filter(binding -> binding.exchange.equals("ledger"))
                .map(binding -> binding.queue + " " + binding.routingKey).toList());
        assertEquals(List.of("ledger.0", "ledger.1", "ledger.2", "ledger.dead"),
                plan.queues.stream().map(queue -> queue.name).sorted().toList());
    }

    @Test
    void aMessageForThePartitionsCarriesItsKeyWhereTheExchangeReadsIt() {
        Partitioning byHeader = Partitioning.declared(4, "header:account-id").partition(0, "ledger");
        OutgoingMessage headed = byHeader.addressed("acct-7");
        assertEquals("ledger", headed.exchange());
        assertEquals("acct-7", headed.headers().get("account-id"));
        Partitioning byRoutingKey = Partitioning.declared(4, "").partition(0, "orders");
        assertEquals("order-9", byRoutingKey.addressed("order-9").routingKey());
        assertEquals(Map.of(), byRoutingKey.exchangeArguments());
        Partitioning byMessageId = Partitioning.declared(4, "message-id").partition(0, "events");
        assertEquals("e-1", byMessageId.addressed("e-1").messageId());
        assertEquals(Map.of("hash-property", "message_id"), byMessageId.exchangeArguments());
        assertThrows(IllegalArgumentException.class, () -> byHeader.addressed(null));
    }
}
