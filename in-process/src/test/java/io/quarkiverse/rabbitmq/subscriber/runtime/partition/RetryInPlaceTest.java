package io.quarkiverse.rabbitmq.subscriber.runtime.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ConcurrencyGate;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * A partition's retry is handled again in place: never settled meanwhile, its place in the gate kept (the next
 * delivery waits), after its delay on the runtime's clock, counted as one more attempt; the deliveries behind it count
 * as held for the clock while it waits; a stop lets the held ones and those behind them go with the channel; other
 * verdicts go on.
 */
class RetryInPlaceTest {

    final Vertx vertx = Vertx.vertx();
    final Context loop = ((VertxInternal) vertx).createEventLoopContext();
    final VirtualClock clock = new VirtualClock(0);
    final InFlight inFlight = new InFlight();
    final List<String> calls = new CopyOnWriteArrayList<>();
    final ConcurrencyGate gate = new ConcurrencyGate(1);
    final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();
    final RetryInPlace stage = new RetryInPlace(clock, loop, inFlight, gate, settlements, (delivery, verdict) -> {
        calls.add("settle:" + delivery.deliveryTag() + ":" + verdict.settlement());
        gate.released();
    });

    {
        gate.leadsTo(stage.around((context, delivery) -> calls.add("invoke:" + delivery.deliveryTag() + ":attempt "
                + delivery.attempt())));
    }

    @AfterEach
    void close() {
        vertx.close();
    }

    private void onLoop(Runnable work) throws Exception {
        StageFixtures.onLoop(loop, work);
    }

    private static Verdict verdict(Settlement settlement) {
        return Verdict.handled(Outcome.retry()).decided(settlement);
    }

    @Test
    void aRetryAfterADelayGoesBackToTheHandlerWhileTheNextWaits() throws Exception {
        InboundDelivery first = StageFixtures.delivery(1);
        onLoop(() -> {
            gate.arrived(loop, first);
            gate.arrived(loop, StageFixtures.delivery(2));
            stage.pass(first, verdict(new Settlement.Again(Duration.ofSeconds(5), 2)));
        });
        assertEquals(List.of("invoke:1:attempt 1"), calls);
        assertEquals(2, inFlight.heldForClock(), "the retry and the delivery behind it wait for the clock");
        clock.advance(Duration.ofMillis(4999), () -> {
        });
        onLoop(() -> {
        });
        assertEquals(List.of("invoke:1:attempt 1"), calls);
        clock.advance(Duration.ofMillis(1), () -> {
        });
        onLoop(() -> {
        });
        onLoop(() -> {
        });
        assertEquals(List.of("invoke:1:attempt 1", "invoke:1:attempt 2"), calls);
        assertEquals(0, inFlight.heldForClock());
        onLoop(() -> stage.pass(first, verdict(Settlement.ACK)));
        assertEquals(List.of("invoke:1:attempt 1", "invoke:1:attempt 2", "settle:1:" + Settlement.ACK,
                "invoke:2:attempt 1"), calls);
    }

    @Test
    void aRetryAtOnceIsHandledAgainThroughTheLoop() throws Exception {
        InboundDelivery first = StageFixtures.delivery(1);
        onLoop(() -> {
            gate.arrived(loop, first);
            stage.pass(first, verdict(new Settlement.Again(Duration.ZERO, 2)));
            // Not from inside the verdict's own call: after the loop's other work.
            assertEquals(List.of("invoke:1:attempt 1"), calls);
        });
        onLoop(() -> {
        });
        assertEquals(List.of("invoke:1:attempt 1", "invoke:1:attempt 2"), calls);
        assertEquals(0, inFlight.heldForClock());
    }

    @Test
    void aStopLetsTheHeldRetriesGoUnsettled() throws Exception {
        InboundDelivery first = StageFixtures.delivery(1);
        onLoop(() -> {
            gate.arrived(loop, first);
            gate.arrived(loop, StageFixtures.delivery(2));
            stage.pass(first, verdict(new Settlement.Again(Duration.ofSeconds(5), 2)));
            gate.draining();
        });
        assertEquals(0, inFlight.heldForClock());
        clock.advance(Duration.ofSeconds(10), () -> {
        });
        onLoop(() -> {
        });
        onLoop(() -> stage.pass(StageFixtures.delivery(3), verdict(new Settlement.Again(Duration.ZERO, 2))));
        onLoop(() -> {
        });
        assertEquals(List.of("invoke:1:attempt 1"), calls, "neither handled again nor settled: RabbitMQ gives "
                + "them back when the channel closes");
        assertEquals(List.of("abandoned:1", "abandoned:2", "abandoned:3"), settlements.calls, "the held retry, the "
                + "delivery waiting behind it and a retry decided after the stop leave with the channel");
        assertEquals(0, gate.waiting());
    }

    @Test
    void otherVerdictsAreSettled() throws Exception {
        InboundDelivery first = StageFixtures.delivery(1);
        onLoop(() -> {
            gate.arrived(loop, first);
            stage.pass(first, verdict(Settlement.REJECT));
        });
        assertEquals(List.of("invoke:1:attempt 1", "settle:1:" + Settlement.REJECT), calls);
    }
}
