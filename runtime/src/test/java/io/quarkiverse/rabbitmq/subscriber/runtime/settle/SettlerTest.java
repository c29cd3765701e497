package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytesTest;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/**
 * The settler tells settlements on its subscriber's own event loop from settlements anywhere else, another event loop
 * included: "on an event loop" is not enough, since the channel's ack window belongs to one loop.
 */
class SettlerTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close();
    }

    @Test
    void countsSettlementsOnAnotherEventLoopAsElsewhere() throws Exception {
        List<String> frames = new CopyOnWriteArrayList<>();
        BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                    frames.add(method.getName() + ":" + args[0]);
                    return null;
                });
        ContextInternal own = ((VertxInternal) vertx).createEventLoopContext();
        ContextInternal other = anotherLoopThan(own);
        SettlementStats stats = new SettlementStats();
        Settler settler = settler(channel, own, stats, new InFlight());

        on(own, () -> {
            InboundDelivery first = delivery(1);
            settler.arrived(first);
            settler.settle(first, Settlement.REJECT);
        });
        InboundDelivery second = delivery(2);
        on(own, () -> settler.arrived(second));
        on(other, () -> settler.settle(second, Settlement.REJECT));

        assertEquals(List.of("reject:1", "reject:2"), frames);
        assertEquals(1, stats.settledOnSubscriberLoop());
        assertEquals(1, stats.settledElsewhere(), "settled on another event loop's thread");
    }

    /**
     * Deliveries take their places in the ack window as they arrive, on the client's reader thread (here the test's),
     * and the loop takes them in before it settles one: an ack of a later delivery never covers an earlier one still
     * running, whichever route brought them.
     */
    @Test
    void anAckNeverCoversAnEarlierDeliveryStillRunning() throws Exception {
        List<String> frames = new CopyOnWriteArrayList<>();
        BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                    frames.add(method.getName() + ":" + args[0] + (Boolean.TRUE.equals(args[1]) ? "+" : ""));
                    return null;
                });
        ContextInternal own = ((VertxInternal) vertx).createEventLoopContext();
        var inFlight = new InFlight();
        Settler settler = settler(channel, own, new SettlementStats(), inFlight);
        InboundDelivery[] deliveries = new InboundDelivery[4];
        for (int tag = 1; tag <= 3; tag++) {
            deliveries[tag] = delivery(tag);
            inFlight.begin();
            settler.arrived(deliveries[tag]);
        }
        on(own, () -> settler.settle(deliveries[2], Settlement.ACK));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> frames.size() == 1);
        assertEquals(List.of("ack:2"), frames, "delivery 1 still runs: a single ack");
        on(own, () -> settler.settle(deliveries[1], Settlement.ACK));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> frames.size() == 2);
        assertEquals(List.of("ack:2", "ack:1"), frames, "delivery 3 still runs: delivery 1's ack covers nothing else");
    }

    /**
     * Acks handled soon after a frame wait for the others of the quiet spell and leave in one multiple ack (the first
     * leaves at once; when acks leave at once is AckPacingTest's).
     */
    @Test
    void acksSoonAfterAFrameLeaveTogether() throws Exception {
        // The pacing's window is wall-clock time: in a JVM that has just started (this class alone), the first pass
        // loads and compiles the settling path and may take longer than the window; the acks then rightly leave one by
        // one. A later pass is quick: three are tried before concluding the machine is too busy to show anything.
        long took = 0;
        for (int pass = 1; pass <= 3; pass++) {
            List<String> frames = new CopyOnWriteArrayList<>();
            took = settleFourSoonAfterAFrame(frames);
            if (took < AckPacing.QUIET_NANOS) {
                assertEquals(List.of("ack:1", "ack:4+"), frames);
                return;
            }
        }
        org.junit.jupiter.api.Assumptions.abort(
                "the last ack came " + took / 1000 + " µs after the first frame, more than the pacing's window");
    }

    /** Settles four deliveries one by one; returns how long after the first frame the last ack was settled. */
    private long settleFourSoonAfterAFrame(List<String> frames) throws Exception {
        java.util.concurrent.atomic.AtomicLong firstFrameAt = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicLong lastAckAt = new java.util.concurrent.atomic.AtomicLong();
        BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                    firstFrameAt.compareAndSet(0, System.nanoTime());
                    frames.add(method.getName() + ":" + args[0] + (Boolean.TRUE.equals(args[1]) ? "+" : ""));
                    return null;
                });
        ContextInternal own = ((VertxInternal) vertx).createEventLoopContext();
        var inFlight = new InFlight();
        Settler settler = settler(channel, own, new SettlementStats(), inFlight);
        InboundDelivery[] deliveries = new InboundDelivery[5];
        on(own, () -> {
            for (int tag = 1; tag <= 4; tag++) {
                deliveries[tag] = delivery(tag);
                inFlight.begin();
                settler.arrived(deliveries[tag]);
            }
            settler.settle(deliveries[1], Settlement.ACK);
        });
        // Three acks, each followed by the flush it scheduled (the empty task runs after it): without pacing, three
        // frames.
        for (int tag = 2; tag <= 4; tag++) {
            InboundDelivery delivery = deliveries[tag];
            on(own, () -> {
                settler.settle(delivery, Settlement.ACK);
                lastAckAt.set(System.nanoTime());
            });
            on(own, () -> {
            });
        }
        // Within the window the last ack joins the others; the frames are complete once nothing is in flight.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> inFlight.count() == 0);
        return lastAckAt.get() - firstFrameAt.get();
    }

    /**
     * A worker handler's result may wait for the loop's next wake-up (Completions leaves the loop asleep) only while a
     * timer is set to flush the waiting acks and the result's ack would wait for that flush.
     */
    @Test
    void resultsMayWaitOnlyForAFlushTimerThatIsSet() throws Exception {
        java.util.concurrent.atomic.AtomicLong firstFrameAt = new java.util.concurrent.atomic.AtomicLong();
        BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                    firstFrameAt.compareAndSet(0, System.nanoTime());
                    return null;
                });
        ContextInternal own = ((VertxInternal) vertx).createEventLoopContext();
        var inFlight = new InFlight();
        Settler settler = settler(channel, own, new SettlementStats(), inFlight);
        InboundDelivery[] deliveries = new InboundDelivery[3];
        on(own, () -> {
            for (int tag = 1; tag <= 2; tag++) {
                deliveries[tag] = delivery(tag);
                inFlight.begin();
                settler.arrived(deliveries[tag]);
            }
            settler.settle(deliveries[1], Settlement.ACK);
        });
        on(own, () -> {
        });
        assertEquals(false, settler.resultsMayWait(1), "the first ack left at once, and no timer is set");
        on(own, () -> settler.settle(deliveries[2], Settlement.ACK));
        // The flush that ack scheduled has run: soon after a frame, it set a timer.
        on(own, () -> {
        });
        boolean oneMayWait = settler.resultsMayWait(1);
        boolean aBatchMayWait = settler.resultsMayWait(AckPacing.UNLIMITED_BATCH);
        long took = System.nanoTime() - firstFrameAt.get();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5))
                .until(() -> inFlight.count() == 0);
        assertEquals(false, settler.resultsMayWait(1), "the timer fired: the loop is not due to wake");
        // As in acksSoonAfterAFrameLeaveTogether: on a machine too slow for the pacing's window, no timer was set.
        org.junit.jupiter.api.Assumptions.assumeTrue(took < AckPacing.QUIET_NANOS,
                "the second ack came " + took / 1000 + " µs after the first frame, more than the pacing's window");
        assertEquals(true, oneMayWait, "while the timer is set, a result may wait for its wake-up");
        assertEquals(false, aBatchMayWait, "a batch that leaves at once (the unlimited prefetch's) may not");
    }

    /** A settler of queue "q" that publishes no copies (no dead-letter queue, no delay) and bounds no bytes. */
    private static Settler settler(BrokerChannel channel, ContextInternal own, SettlementStats stats, InFlight inFlight)
            throws java.io.IOException {
        return new Settler(channel, "q", own, stats, inFlight, null, null,
                new CopyPolicy("x-retry-count", null, false, false, Duration.ofSeconds(1), false),
                new CopyOutlet(channel, false, () -> false), UnsettledBytesTest.unbounded(), UnsettledBytesTest.CLOCK,
                Observers.NONE);
    }

    private ContextInternal anotherLoopThan(ContextInternal own) throws Exception {
        Thread ownThread = threadOf(own);
        for (int i = 0; i < 16; i++) {
            ContextInternal candidate = ((VertxInternal) vertx).createEventLoopContext();
            if (threadOf(candidate) != ownThread) {
                return candidate;
            }
        }
        throw new AssertionError("Vert.x gave every context the same event loop");
    }

    private static Thread threadOf(ContextInternal context) throws Exception {
        CompletableFuture<Thread> thread = new CompletableFuture<>();
        context.runOnContext(ignored -> thread.complete(Thread.currentThread()));
        return thread.get(5, TimeUnit.SECONDS);
    }

    private static void on(ContextInternal context, Runnable task) throws Exception {
        OnLoop.run(context, task);
    }

    private static InboundDelivery delivery(long tag) {
        return new InboundDelivery("q", new Envelope(tag, false, "", "q"), new AMQP.BasicProperties(), new byte[0],
                "x-retry-count");
    }
}
