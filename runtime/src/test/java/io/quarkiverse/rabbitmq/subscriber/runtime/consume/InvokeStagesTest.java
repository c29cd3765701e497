package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.killswitch.KillSwitchCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/** The call stages and the kill switch's check before the call, without an application. */
class InvokeStagesTest {

    private final Vertx vertx = Vertx.vertx();
    private final ContextInternal loop = ((VertxInternal) vertx).createEventLoopContext();
    private final List<Object> results = new CopyOnWriteArrayList<>();
    private final List<Boolean> resultsOnLoop = new CopyOnWriteArrayList<>();
    private final ResultStage recording = (context, delivery, result, async) -> {
        resultsOnLoop.add(Context.isOnEventLoopThread());
        results.add(result);
    };

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void onTheLoopTheResultGoesOnAtOnce() {
        Outcome ack = Outcome.ack();
        new InvokeOnLoop(delivery -> ack, recording).pass(null, delivery(1));
        assertEquals(List.of(ack), results);
    }

    @Test
    void offTheLoopTheHandlerRunsOnAWorkerAndItsResultComesBackToTheLoop() {
        Outcome retry = Outcome.retry();
        List<Boolean> handlerOnLoop = new CopyOnWriteArrayList<>();
        InvokeOffLoop invoke = new InvokeOffLoop(loop, new HandlerThreads(SubscriberDefinition.ExecutionModel.WORKER),
                delivery -> {
                    handlerOnLoop.add(Context.isOnEventLoopThread());
                    return retry;
                }, recording);
        loop.runOnContext(ignored -> invoke.pass(DeliveryContexts.newContext(loop), delivery(1)));
        await().atMost(Duration.ofSeconds(5)).until(() -> results.size() == 1);
        assertSame(retry, results.get(0));
        assertEquals(List.of(false), handlerOnLoop);
        assertEquals(List.of(true), resultsOnLoop);
    }

    @Test
    void whileTheKillSwitchIsTrippedTheHandlerIsNotCalled() {
        AtomicBoolean tripped = new AtomicBoolean();
        List<Long> called = new CopyOnWriteArrayList<>();
        KillSwitchCheck<InboundDelivery> check = new KillSwitchCheck<>(tripped::get, delivery -> {
            called.add(delivery.deliveryTag());
            return Outcome.ack();
        });
        assertEquals(Outcome.ack(), check.run(delivery(1)));
        tripped.set(true);
        assertSame(Verdict.NOT_RUN, check.run(delivery(2)));
        assertEquals(List.of(1L), called);
        assertFalse(called.contains(2L));
    }
}
