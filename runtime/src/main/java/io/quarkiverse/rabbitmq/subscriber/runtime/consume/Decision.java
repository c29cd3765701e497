package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementPlan;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** Asks the {@link SettlementPlan} what a delivery's result settles it with, from what the delivery says. */
final class Decision {

    private final SubscriptionSpec subscription;

    Decision(SubscriptionSpec subscription) {
        this.subscription = subscription;
    }

    Settlement of(InboundDelivery delivery, HandlerResult result) {
        return SettlementPlan.decide(subscription, delivery.attempt(), deliveryCount(subscription, delivery),
                delivery.redelivered(), result);
    }

    /** A quorum queue's count of this message's earlier deliveries; classic queues have none. */
    static int deliveryCount(SubscriptionSpec subscription, InboundDelivery delivery) {
        return subscription.quorum() ? delivery.redeliveryCount().orElse(0) : 0;
    }
}
