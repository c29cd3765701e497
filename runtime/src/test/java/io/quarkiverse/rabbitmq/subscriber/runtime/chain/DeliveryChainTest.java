package io.quarkiverse.rabbitmq.subscriber.runtime.chain;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.invoke.Invoker;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DirectRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.EventLoopRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/** A subscription's chain as DeliveryChain builds it: the route it gets, and its stages end to end, no application. */
class DeliveryChainTest {

    private final Vertx vertx = Vertx.vertx();
    private final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void theRouteFollowsTheExecutionModelAndTheBound() {
        Invoker<Object, Object> ack = (instance, arguments) -> Outcome.ack();
        assertInstanceOf(EventLoopRoute.class, chain(SubscriptionSpec.builder("q").build(),
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, ack));
        assertInstanceOf(DirectRoute.class, chain(SubscriptionSpec.builder("q").build(),
                SubscriberDefinition.ExecutionModel.WORKER, ack));
        assertInstanceOf(EventLoopRoute.class, chain(SubscriptionSpec.builder("q").concurrency(2).build(),
                SubscriberDefinition.ExecutionModel.WORKER, ack));
    }

    @Test
    void underABoundOfOneTheNextDeliveryWaitsForTheFirstToSettle() {
        List<CompletableFuture<Object>> pending = new CopyOnWriteArrayList<>();
        DeliveryRoute route = chain(SubscriptionSpec.builder("q").concurrency(1).build(),
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, (instance, arguments) -> {
                    CompletableFuture<Object> result = new CompletableFuture<>();
                    pending.add(result);
                    return result;
                });
        route.take(delivery(1));
        route.take(delivery(2));
        await().atMost(Duration.ofSeconds(5)).until(() -> settlements.calls.size() == 2 && pending.size() == 1);
        assertEquals(List.of("arrived:1", "arrived:2"), settlements.calls,
                "both arrived and took their place, neither is settled");
        pending.get(0).complete(Outcome.ack());
        await().atMost(Duration.ofSeconds(5)).until(() -> pending.size() == 2);
        pending.get(1).complete(Outcome.drop());
        await().atMost(Duration.ofSeconds(5)).until(() -> settlements.calls.size() == 4);
        assertEquals(List.of("settle:1:ack", "settle:2:reject"), settlements.calls.subList(2, 4));
    }

    @Test
    void anUnboundedWorkerHandlerIsSettledThroughTheWholeChain() {
        DeliveryRoute route = chain(SubscriptionSpec.builder("q").build(), SubscriberDefinition.ExecutionModel.WORKER,
                (instance, arguments) -> "hello".equals(arguments[0]) ? Outcome.ack() : Outcome.retry());
        route.take(delivery(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> settlements.calls.size() == 2);
        assertEquals(List.of("arrived:1", "settle:1:requeue"), settlements.calls,
                "a retry on a classic queue without a cap is a requeue");
    }

    private DeliveryRoute chain(SubscriptionSpec subscription, SubscriberDefinition.ExecutionModel model,
            Invoker<Object, Object> invoker) {
        SubscriberDefinition definition = StageFixtures.definition(subscription, model, -1, invoker);
        return DeliveryChain.of(definition,
                new Codecs(new ObjectMapper(), java.util.List.of(), Long.MAX_VALUE).decoder(definition),
                new PayloadEncoder(new ObjectMapper()), ReplyTargets.ANY, settlements,
                ((VertxInternal) vertx).createEventLoopContext(), Observers.NONE, new OutcomeCounters(),
                KillSwitch.NONE, new io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock(vertx),
                new io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight(),
                (handler, instance, arguments) -> handler.invoke(instance, arguments));
    }
}
