package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** What the plan holds for each delay strategy, and which part of it one subscription owns. */
class TopologyPlanTest {

    static final SubscriptionSpec REFUNDS = SubscriptionSpec.builder("refunds").maxAttempts(5).deadLetter("refunds.dead")
            .delay(Delay.DLX_TTL).build();
    static final SubscriptionSpec ORDERS = SubscriptionSpec.builder("orders").maxAttempts(3).deadLetter("shared.dead")
            .delay(Delay.DLX_TTL_PER_DELAY).delays(List.of("30s", "500ms", "5m")).build();
    static final SubscriptionSpec PAYOUTS = SubscriptionSpec.builder("payouts").type(QueueType.QUORUM).maxAttempts(5)
            .deadLetter("shared.dead").delay(Delay.PLUGIN).delayedExchange("delayed").build();
    static final SubscriptionSpec DEAD_READER = SubscriptionSpec.builder("refunds.dead").build();

    static String render(TopologyPlan.QueuePlan queue) {
        return queue.name + " " + queue.role + " of " + queue.owner + " " + queue.arguments;
    }

    @Test
    void plansEveryQueueExchangeAndBindingOnceInNameOrder() {
        TopologyPlan plan = TopologyPlan.of(List.of(REFUNDS, PAYOUTS, ORDERS, DEAD_READER));
        assertEquals(List.of(
                "orders WORK of orders {}",
                "payouts WORK of payouts {x-queue-type=quorum, x-delivery-limit=4, x-dead-letter-exchange=, "
                        + "x-dead-letter-routing-key=shared.dead, x-dead-letter-strategy=at-least-once, "
                        + "x-overflow=reject-publish}",
                "refunds WORK of refunds {}",
                "refunds.dead WORK of refunds.dead {}",
                "shared.dead DEAD_LETTER of orders {}",
                "orders.retry.500ms WAITING of orders {x-dead-letter-exchange=, x-dead-letter-routing-key=orders, "
                        + "x-message-ttl=500}",
                "orders.retry.30s WAITING of orders {x-dead-letter-exchange=, x-dead-letter-routing-key=orders, "
                        + "x-message-ttl=30000}",
                "orders.retry.5m WAITING of orders {x-dead-letter-exchange=, x-dead-letter-routing-key=orders, "
                        + "x-message-ttl=300000}",
                "refunds.retry WAITING of refunds {x-dead-letter-exchange=, x-dead-letter-routing-key=refunds}",
                // refunds.dead is a dead-letter queue with a reader: its letters the reader cannot handle go there.
                "refunds.dead.parked DEAD_LETTER of refunds.dead {}"),
                plan.queues.stream().map(TopologyPlanTest::render).toList());
        assertEquals("[exchange 'delayed' (x-delayed-message)]", plan.exchanges.toString());
        assertEquals(Map.of("x-delayed-type", "direct"), plan.exchanges.get(0).arguments);
        assertEquals("[binding of 'payouts' to 'delayed' under 'payouts']", plan.bindings.toString());
    }

    @Test
    void aSubscriptionOwnsItsQueueItsDeadLetterQueueItsWaitingQueuesAndItsExchange() {
        TopologyPlan plan = TopologyPlan.of(List.of(REFUNDS, PAYOUTS, ORDERS, DEAD_READER));
        assertEquals(List.of("refunds", "refunds.retry"),
                plan.ownedBy(REFUNDS).queues.stream().map(queue -> queue.name).toList(),
                "refunds.dead is another subscriber's work queue: that one declares it");
        TopologyPlan payouts = plan.ownedBy(PAYOUTS);
        assertEquals(List.of("payouts", "shared.dead"), payouts.queues.stream().map(queue -> queue.name).toList(),
                "a shared dead-letter queue is declared by each of its subscriptions");
        assertEquals(1, payouts.exchanges.size());
        assertEquals(1, payouts.bindings.size());
    }

    @Test
    void argumentsKeepTheirOrder() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("x-dead-letter-exchange", "");
        expected.put("x-dead-letter-routing-key", "refunds");
        assertEquals(expected, TopologyPlan.of(List.of(REFUNDS)).queues.get(2).arguments);
    }

    @Test
    void bindingsPlanTheirExchangesOnceAndABindingPerKey() {
        SubscriptionSpec orders = SubscriptionSpec.builder("orders")
                .binding("shop", io.quarkiverse.rabbitmq.subscriber.ExchangeType.TOPIC, List.of("order.*", "cart.#"),
                        List.of())
                .binding("amq.headers", io.quarkiverse.rabbitmq.subscriber.ExchangeType.HEADERS, List.of(),
                        List.of("x-match=all", "kind=order"))
                .build();
        SubscriptionSpec audit = SubscriptionSpec.builder("audit")
                .binding("shop", io.quarkiverse.rabbitmq.subscriber.ExchangeType.TOPIC, List.of(), List.of()).build();
        TopologyPlan plan = TopologyPlan.of(List.of(orders, audit));
        assertEquals(List.of("exchange 'shop' (topic)", "exchange 'amq.headers' (headers)"),
                plan.exchanges.stream().map(Object::toString).toList());
        assertEquals(List.of(false, true), plan.exchanges.stream().map(TopologyPlan.ExchangePlan::builtIn).toList());
        assertEquals(List.of("binding of 'audit' to 'shop' under '#'", "binding of 'orders' to 'shop' under 'order.*'",
                "binding of 'orders' to 'shop' under 'cart.#'",
                "binding of 'orders' to 'amq.headers' under '' {x-match=all, kind=order}"),
                plan.bindings.stream().map(Object::toString).toList());
        assertEquals(List.of("exchange 'shop' (topic)"),
                plan.ownedBy(audit).exchanges.stream().map(Object::toString).toList());
    }
}
