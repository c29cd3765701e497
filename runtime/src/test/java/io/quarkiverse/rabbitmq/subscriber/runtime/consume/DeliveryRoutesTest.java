package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/** The two routes from the client's reader thread (here the test's thread) towards the handler, without an application. */
class DeliveryRoutesTest {

    private final Vertx vertx = Vertx.vertx();
    private final ContextInternal loop = ((VertxInternal) vertx).createEventLoopContext();
    private final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void throughTheEventLoopEachDeliveryArrivesThenGoesOnInArrivalOrderOnAContextOfItsOwn() {
        List<Context> contexts = new CopyOnWriteArrayList<>();
        List<Boolean> onLoop = new CopyOnWriteArrayList<>();
        EventLoopRoute route = new EventLoopRoute(loop, settlements, (context, delivery) -> {
            onLoop.add(Context.isOnEventLoopThread());
            contexts.add(context);
            settlements.calls.add("passed:" + delivery.deliveryTag());
        });
        for (long tag = 1; tag <= 3; tag++) {
            route.take(delivery(tag));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> settlements.calls.size() == 6);
        assertEquals(List.of("arrived:1", "arrived:2", "arrived:3"), only("arrived"),
                "the body counts against the bound and takes its place in the window as it arrives, on the reader thread");
        assertEquals(List.of("passed:1", "passed:2", "passed:3"), allBut("arrived"));
        assertEquals(List.of(true, true, true), onLoop);
        assertEquals(3, new HashSet<>(contexts).size(), "a fresh duplicated context per delivery");
        contexts.forEach(context -> assertTrue(((ContextInternal) context).isDuplicate()));
    }

    @Test
    void directlyTheHandlerRunsOffTheLoopAndADeliveryArrivesBeforeItsResult() {
        List<String> handlerThreads = new CopyOnWriteArrayList<>();
        List<Boolean> resultsOnLoop = new CopyOnWriteArrayList<>();
        DirectRoute route = new DirectRoute(loop, settlements,
                new HandlerThreads(SubscriberDefinition.ExecutionModel.WORKER), delivery -> {
                    handlerThreads.add(Thread.currentThread().getName());
                    return Outcome.ack();
                }, (context, delivery, result, async) -> {
                    resultsOnLoop.add(Context.isOnEventLoopThread());
                    settlements.calls.add("result:" + delivery.deliveryTag());
                });
        for (long tag = 1; tag <= 3; tag++) {
            route.take(delivery(tag));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> settlements.calls.size() == 6);
        assertEquals(List.of("arrived:1", "arrived:2", "arrived:3"), only("arrived"),
                "arrivals are recorded in delivery order");
        List<String> calls = List.copyOf(settlements.calls);
        for (long tag = 1; tag <= 3; tag++) {
            assertTrue(calls.indexOf("arrived:" + tag) < calls.indexOf("result:" + tag),
                    "a delivery takes its place in the ack window before its result is settled: " + calls);
        }
        assertEquals(List.of(true, true, true), resultsOnLoop);
        handlerThreads.forEach(name -> assertFalse(name.contains("eventloop"), name));
    }

    private List<String> only(String what) {
        return settlements.calls.stream().filter(call -> call.startsWith(what + ":")).toList();
    }

    private List<String> allBut(String what) {
        return settlements.calls.stream().filter(call -> !call.startsWith(what + ":")).toList();
    }
}
