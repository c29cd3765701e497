package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/** The stages between a handler's result and its verdict: AwaitResult, ReadResult; no application. */
class ResultStagesTest {

    private final Vertx vertx = Vertx.vertx();
    private final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();

    private record Passed(Object result, boolean async, boolean onLoop) {
    }

    private final List<Passed> passed = new CopyOnWriteArrayList<>();
    private final ResultStage recording = (context, delivery, result, async) -> passed
            .add(new Passed(result, async, Context.isOnEventLoopThread()));

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void aPlainResultAndOneCompleteBeforeTheHandlerReturnedGoOnAtOnce() {
        ContextInternal context = DeliveryContexts.newContext(((VertxInternal) vertx).createEventLoopContext());
        AwaitResult await = new AwaitResult(recording);
        List<Integer> passedWithinTheCall = new CopyOnWriteArrayList<>();
        context.runOnContext(ignored -> {
            await.pass(context, delivery(1), Outcome.ack(), false);
            await.pass(context, delivery(2), CompletableFuture.completedFuture(Outcome.retry()), false);
            await.pass(context, delivery(3), CompletableFuture.failedFuture(new IllegalStateException("no")), false);
            passedWithinTheCall.add(passed.size());
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> passedWithinTheCall.size() == 1);
        assertEquals(List.of(3), passedWithinTheCall, "no callback, no hop: each went on within its call");
        assertEquals(new Passed(Outcome.ack(), false, true), passed.get(0));
        assertEquals(new Passed(Outcome.retry(), true, true), passed.get(1));
        assertTrue(((Verdict) passed.get(2).result()).isFailed());
        assertEquals("no", ((Verdict) passed.get(2).result()).cause().getMessage());
    }

    @Test
    void aLaterResultGoesOnOnTheDeliverysEventLoopContextWhateverThreadCompletesIt() throws Exception {
        ContextInternal context = DeliveryContexts.newContext(((VertxInternal) vertx).createEventLoopContext());
        CompletableFuture<Object> later = new CompletableFuture<>();
        new AwaitResult(recording).pass(context, delivery(1), later, false);
        assertTrue(passed.isEmpty());
        Thread elsewhere = new Thread(() -> later.complete(Outcome.drop()));
        elsewhere.start();
        elsewhere.join();
        await().atMost(Duration.ofSeconds(5)).until(() -> passed.size() == 1);
        assertEquals(new Passed(Outcome.drop(), true, true), passed.get(0));
    }

    @Test
    void aBugPastTheReadingStillSettlesTheDeliveryOnceAndFreesItsPlace() {
        AtomicInteger released = new AtomicInteger();
        ResultReading reading = new ResultReading(StageFixtures.definition(SubscriptionSpec.builder("q").build(),
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, -1, (instance, arguments) -> null));
        ReadResult guard = new ReadResult(settlements, released::incrementAndGet, reading, (delivery, verdict) -> {
            throw new IllegalStateException("a bug");
        });
        guard.pass(null, delivery(1), Outcome.ack(), false);
        assertEquals(List.of("settle:1:requeue"), settlements.calls);
        assertEquals(1, released.get());

        ReadResult afterSettling = new ReadResult(settlements, released::incrementAndGet, reading,
                (delivery, verdict) -> {
                    settlements.settle(delivery, Settlement.ACK);
                    throw new IllegalStateException("a bug after the frame");
                });
        afterSettling.pass(null, delivery(2), Outcome.ack(), false);
        assertEquals(List.of("settle:1:requeue", "settle:2:ack"), settlements.calls, "nothing sent twice");
        assertEquals(1, released.get());
    }

    @Test
    void theResultIsReadAndDecidedIntoAVerdict() {
        List<Verdict> verdicts = new CopyOnWriteArrayList<>();
        SubscriberDefinition definition = StageFixtures.definition(SubscriptionSpec.builder("q").maxAttempts(3)
                .deadLetter("q.dlq").build(), SubscriberDefinition.ExecutionModel.EVENT_LOOP, -1,
                (instance, arguments) -> null);
        ReadResult read = new ReadResult(settlements, () -> {
        }, new ResultReading(definition), (delivery, verdict) -> verdicts.add(verdict));

        read.pass(null, delivery(1), Outcome.ack(), false);
        assertEquals(Outcome.ack(), verdicts.get(0).outcome());
        assertSame(Settlement.ACK, verdicts.get(0).settlement());
        assertSame(Verdict.ACKED, verdicts.get(0), "an ack allocates no verdict");

        IllegalStateException thrown = new IllegalStateException("down");
        read.pass(null, delivery(2), Verdict.thrown(thrown), false);
        assertTrue(verdicts.get(1).isFailed());
        assertSame(thrown, verdicts.get(1).cause());
        assertEquals("copy", StageFixtures.RecordingSettlements.name(verdicts.get(1).settlement()),
                "a failure under a cap is retried with a copy");

        UndecodablePayloadException undecodable = new UndecodablePayloadException("not JSON", null);
        read.pass(null, delivery(3), Verdict.undecodable(undecodable), false);
        assertEquals(Verdict.Kind.UNDECODABLE, verdicts.get(2).kind());
        assertEquals("dead_letter", StageFixtures.RecordingSettlements.name(verdicts.get(2).settlement()));

        read.pass(null, delivery(4), Verdict.NOT_RUN, false);
        assertSame(Verdict.NOT_RUN, verdicts.get(3));
        assertEquals(Verdict.Kind.NOT_RUN, verdicts.get(3).kind());
        assertSame(Settlement.KEEP, verdicts.get(3).settlement());
    }
}
