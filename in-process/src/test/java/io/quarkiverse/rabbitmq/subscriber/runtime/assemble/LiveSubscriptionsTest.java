package io.quarkiverse.rabbitmq.subscriber.runtime.assemble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.HeldBound;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytes;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.RefusedCopies;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.HoldBacks;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.quarkus.runtime.RuntimeValue;

/** The one home of the live subscriptions, which the status, the controls and the Dev UI read; no application. */
class LiveSubscriptionsTest {

    private final LiveSubscriptions live = new LiveSubscriptions();

    @Test
    void subscriptionsAreFoundByQueueInTheOrderTheyStarted() {
        SubscriptionState orders = state("orders");
        SubscriptionState refunds = state("refunds");
        live.add(orders);
        live.add(refunds);
        assertEquals(List.of(orders, refunds), live.all());
        assertSame(refunds, live.of("refunds").orElseThrow());
        assertEquals(Optional.empty(), live.of("payments"));
        assertEquals(0, live.heldCopies("payments"), "a queue no subscriber consumes holds nothing");
    }

    @Test
    void theStopIsMarkedOnceAndTheStartWhenEverySubscriberConsumed() {
        assertFalse(live.isStarted());
        live.started();
        assertTrue(live.isStarted());
        assertTrue(live.stop());
        assertFalse(live.stop(), "a second stop finds it begun");
        assertTrue(live.isStopping());
    }

    private static SubscriptionState state(String queue) {
        SubscriberDefinition definition = new SubscriberDefinition(SubscriptionSpec.builder(queue).build(),
                "org.acme.Handlers#handle", SubscriberDefinition.PayloadKind.STRING, "java.lang.String", 1, 0, -1, -1,
                SubscriberDefinition.ReturnKind.OUTCOME, SubscriberDefinition.ExecutionModel.EVENT_LOOP,
                new RuntimeValue<>((instance, arguments) -> null));
        HoldBacks holdBacks = new HoldBacks();
        VirtualClock clock = new VirtualClock(0);
        SubscriptionState.Parts parts = new SubscriptionState.Parts(definition,
                KillSwitch.of(definition.subscription, clock, holdBacks),
                new InServiceDelay(queue, clock, (exchange, routingKey, properties, body) -> null, new HeldBound(10, 1_000),
                        holdBacks.under("held copies"), null),
                new UnsettledBytes(queue, 1_000, 10, holdBacks.under("unsettled bytes"),
                        new io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock(null)),
                new RefusedCopies());
        return new SubscriptionState(parts, null);
    }
}
