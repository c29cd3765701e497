package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/**
 * Under {@code CONFIRMED}, the original is acked only once the broker confirmed its copy; a nack, a return or no
 * confirm in time requeues it. Many copies are in flight at once: one multiple confirm releases all their acks. A
 * handler's outputs go the same way: the delivery is acked once the last is confirmed, and fails at the first that
 * is not.
 */
class ConfirmedCopyTest {

    private final Vertx vertx = Vertx.vertx();
    private final List<String> frames = new CopyOnWriteArrayList<>();
    private final AtomicReference<PublishListener> listener = new AtomicReference<>();
    private final AtomicLong nextSequence = new AtomicLong(1);
    /** Counts down as deliveries leave the window with their frames written (nothing began here). */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight inFlight = new io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight();
    private final VirtualClock clock = new VirtualClock(0);
    private ContextInternal loop;
    private Settler settler;

    @AfterEach
    void close() {
        vertx.close();
    }

    private final java.util.concurrent.atomic.AtomicBoolean blocked = new java.util.concurrent.atomic.AtomicBoolean();

    /** Copies on the delivery's channel, under {@code CONFIRMED}. */
    private void start() throws Exception {
        start(false);
    }

    /** @param ownChannel copies on a channel of their own (the publishing connection's) */
    private void start(boolean ownChannel) throws Exception {
        start(ownChannel, false);
    }

    /** @param outputs whether the handler produces outputs */
    private void start(boolean ownChannel, boolean outputs) throws Exception {
        start(new CopyPolicy("x-retry-count", null, true, !ownChannel, Duration.ofSeconds(5), outputs), ownChannel);
    }

    private void start(CopyPolicy policy, boolean ownChannel) throws Exception {
        BrokerChannel channel = channel();
        BrokerChannel copies = ownChannel ? channel() : channel;
        loop = ((VertxInternal) vertx).createEventLoopContext();
        on(() -> {
            try {
                settler = new Settler(channel, "work", loop, new SettlementStats(), inFlight, null, null,
                        policy, new CopyOutlet(copies, ownChannel, blocked::get),
                        io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytesTest.unbounded(), clock,
                        io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers.NONE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Records publishes, acks and rejects in {@link #frames}, whichever channel they are on. */
    private BrokerChannel channel() {
        return (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> switch (method.getName()) {
                    case "confirmSelect" -> {
                        listener.set((PublishListener) args[0]);
                        yield null;
                    }
                    case "nextPublishSeqNo" -> nextSequence.get();
                    case "frameMax" -> 0;
                    case "publish" -> {
                        frames.add("publish:" + args[1] + "#" + nextSequence.getAndIncrement());
                        yield null;
                    }
                    case "ack", "reject" -> {
                        frames.add(method.getName() + ":" + args[0] + (args[1].equals(true) ? "+" : ""));
                        yield null;
                    }
                    case "isOpen" -> true;
                    default -> null;
                });
    }

    private static Settlement confirmedCopy() {
        return new Settlement.Republish(Settlement.Target.COPY, "work", 2, null, Duration.ZERO, true);
    }

    /** A {@code DEFAULT} copy: fire-and-forget on the delivery's channel. */
    private static Settlement defaultCopy() {
        return new Settlement.Republish(Settlement.Target.COPY, "work", 2, null, Duration.ZERO, false);
    }

    private InboundDelivery delivered(long tag) throws Exception {
        InboundDelivery delivery = new InboundDelivery("work", new Envelope(tag, false, "", "work"),
                new AMQP.BasicProperties.Builder().messageId("m-" + tag).build(), new byte[0], "x-retry-count");
        on(() -> settler.arrived(delivery));
        return delivery;
    }

    @Test
    void theOriginalWaitsForTheConfirmAndOneMultipleConfirmReleasesMany() throws Exception {
        start();
        InboundDelivery first = delivered(1);
        InboundDelivery second = delivered(2);
        on(() -> {
            settler.settle(first, confirmedCopy());
            settler.settle(second, confirmedCopy());
        });
        settleLoop();
        assertEquals(List.of("publish:work#1", "publish:work#2"), frames, "no ack before the confirms");
        listener.get().acked(2, true);
        settleLoop();
        assertEquals(List.of("publish:work#1", "publish:work#2", "ack:2+"), frames);
    }

    @Test
    void aNackOrAReturnRequeuesTheOriginal() throws Exception {
        start();
        InboundDelivery nacked = delivered(1);
        InboundDelivery returned = delivered(2);
        on(() -> {
            settler.settle(nacked, confirmedCopy());
            settler.settle(returned, confirmedCopy());
        });
        listener.get().nacked(1, false);
        listener.get().returned(312, "NO_ROUTE", "", "work", returned.wireProperties(), new byte[0]);
        listener.get().acked(2, false);
        settleLoop();
        assertEquals(List.of("publish:work#1", "publish:work#2"), frames, "requeued after a pause, not at once");
        clock.advance(Duration.ofSeconds(1), () -> {
        });
        settleLoop();
        assertEquals(List.of("publish:work#1", "publish:work#2", "reject:1+", "reject:2+"), frames);
    }

    /**
     * RabbitMQ closes the copies' channel refusing a copy for what it is (406 on basic.publish: a body above its
     * max_message_size, say): the message is requeued, and when it comes back it is not copied the same way again but
     * published to the dead-letter queue as received; if that is refused too, it is rejected without requeue. Before,
     * each return ran the handler and was refused again, for ever.
     */
    @Test
    void aMessageWhoseCopyRabbitMqRefusedGoesAsReceivedThenIsRejected() throws Exception {
        start(new CopyPolicy("x-retry-count", "work.dead", true, false, Duration.ofSeconds(5), false), true);
        String refusal = "channel error; protocol method: #method<channel.close>(reply-code=406, reply-text="
                + "PRECONDITION_FAILED - message size 2000 is larger than configured max size 1000, class-id=60, "
                + "method-id=40)";
        InboundDelivery bystander = delivered(1);
        InboundDelivery first = comesBack(2, false);
        on(() -> {
            settler.settle(bystander, confirmedCopy());
            settler.settle(first, confirmedCopy());
        });
        listener.get().acked(1, false);
        listener.get().closed(refusal);
        settleLoop();
        clock.advance(Duration.ofSeconds(1), () -> {
        });
        settleLoop();
        assertEquals(List.of("publish:work#1", "publish:work#2", "ack:1", "reject:2+"), frames,
                "the bystander's copy was confirmed before the refusal; the refused one's original is requeued");

        frames.clear();
        InboundDelivery again = comesBack(3, true);
        on(() -> settler.settle(again, confirmedCopy()));
        settleLoop();
        assertEquals(List.of("publish:work.dead#3"), frames, "as received, to the dead-letter queue");
        listener.get().closed(refusal);
        settleLoop();
        clock.advance(Duration.ofSeconds(1), () -> {
        });
        settleLoop();

        frames.clear();
        InboundDelivery last = comesBack(4, true);
        on(() -> settler.settle(last, confirmedCopy()));
        settleLoop();
        assertEquals(List.of("reject:4"), frames, "refused as received too: rejected without requeue");

        frames.clear();
        InboundDelivery other = delivered(5);
        on(() -> settler.settle(other, confirmedCopy()));
        settleLoop();
        assertEquals(List.of("publish:work#4"), frames, "another message is copied as before");
    }

    /** An output RabbitMQ refuses for what it is would be refused again: the handling failed, an attempt. */
    @Test
    void anOutputRabbitMqRefusesFailsTheHandling() throws Exception {
        start(true, true);
        List<String> results = new CopyOnWriteArrayList<>();
        InboundDelivery delivery = delivered(1);
        on(() -> record(settler.publishOutputs(delivery, List.of(output("shipments"))), results));
        listener.get().closed("channel error; protocol method: #method<channel.close>(reply-code=406, reply-text="
                + "PRECONDITION_FAILED - user_id property set to 'other' but authenticated user was 'guest', "
                + "class-id=60, method-id=40)");
        settleLoop();
        assertEquals(1, results.size());
        org.junit.jupiter.api.Assertions.assertTrue(results.get(0).startsWith("failed: RabbitMQ refused the output to"),
                results.get(0));
    }

    /** The same message (message-id {@code refused}) each time, delivered with {@code tag}. */
    private InboundDelivery comesBack(long tag, boolean redelivered) throws Exception {
        InboundDelivery delivery = new InboundDelivery("work", new Envelope(tag, redelivered, "", "work"),
                new AMQP.BasicProperties.Builder().messageId("refused").build(), new byte[] { 1, 2, 3 },
                "x-retry-count");
        on(() -> settler.arrived(delivery));
        return delivery;
    }

    @Test
    void noConfirmInTimeRequeuesTheOriginal() throws Exception {
        start();
        InboundDelivery waiting = delivered(1);
        on(() -> settler.settle(waiting, confirmedCopy()));
        clock.advance(Duration.ofSeconds(6), () -> {
        });
        settleLoop();
        // The timeout was noticed on the event loop; the requeue follows after its pause.
        clock.advance(Duration.ofSeconds(1), () -> {
        });
        settleLoop();
        assertEquals(List.of("publish:work#1", "reject:1+"), frames);
    }

    @Test
    void originalsWaitingForAConfirmLeaveTheWindowWhenTheChannelCloses() throws Exception {
        start();
        InboundDelivery first = delivered(1);
        InboundDelivery second = delivered(2);
        on(() -> {
            settler.settle(first, confirmedCopy());
            settler.settle(second, confirmedCopy());
        });
        listener.get().closed("connection lost");
        settleLoop();
        assertEquals(2, -inFlight.count(), "both counted as done: the broker requeues them with the channel");
        assertEquals(List.of("publish:work#1", "publish:work#2"), frames, "nothing sent for them");
    }

    @Test
    void onItsOwnChannelEvenADefaultCopyIsConfirmedBeforeItsOriginalIsAcked() throws Exception {
        start(true);
        InboundDelivery first = delivered(1);
        on(() -> settler.settle(first, defaultCopy()));
        settleLoop();
        assertEquals(List.of("publish:work#1"), frames, "nothing orders another channel's publish before this ack");
        listener.get().acked(1, false);
        settleLoop();
        assertEquals(List.of("publish:work#1", "ack:1"), frames);
    }

    @Test
    void whenTheCopiesOwnChannelClosesTheOriginalsAreRequeuedOnTheirs() throws Exception {
        start(true);
        InboundDelivery first = delivered(1);
        on(() -> settler.settle(first, defaultCopy()));
        listener.get().closed("the publishing connection was lost");
        settleLoop();
        assertEquals(0, -inFlight.count(), "the delivery's channel is open: the broker requeues nothing by itself");
        clock.advance(Duration.ofSeconds(1), () -> {
        });
        settleLoop();
        assertEquals(List.of("publish:work#1", "reject:1+"), frames);
        assertEquals(1, -inFlight.count());
    }

    @Test
    void noCopyTimesOutWhileTheBrokerBlocksItsConnection() throws Exception {
        start(true);
        blocked.set(true);
        InboundDelivery waiting = delivered(1);
        on(() -> settler.settle(waiting, defaultCopy()));
        for (int i = 0; i < 6; i++) {
            clock.advance(Duration.ofSeconds(5), () -> {
            });
            settleLoop();
        }
        assertEquals(List.of("publish:work#1"), frames, "30 s blocked: still waiting for the confirm");
        // The alarm clears and the confirm comes.
        blocked.set(false);
        listener.get().acked(1, false);
        settleLoop();
        assertEquals(List.of("publish:work#1", "ack:1"), frames);
    }

    private static io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output output(String queue) {
        return new io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output("", queue,
                new AMQP.BasicProperties.Builder().messageId("out-" + queue).build(), new byte[0], true,
                io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT);
    }

    /** What the outputs stage makes of the answer, in words. */
    private static void record(java.util.concurrent.CompletionStage<PublishAnswer> answer, List<String> results) {
        PublishAnswer.whenAnswered(answer, said -> results.add(said.confirmed() ? "confirmed"
                : said.gone() ? "abandoned" : said.cutOnly() ? "requeue: " + said.why() : "failed: " + said.why()));
    }

    @Test
    void outputsAreConfirmedOneByOneAndTheResultComesWithTheLast() throws Exception {
        start(true, true);
        InboundDelivery delivery = delivered(1);
        List<String> results = new CopyOnWriteArrayList<>();
        on(() -> record(settler.publishOutputs(delivery, List.of(output("shipments"), output("invoices"))), results));
        settleLoop();
        assertEquals(List.of("publish:shipments#1", "publish:invoices#2"), frames);
        listener.get().acked(1, false);
        settleLoop();
        assertEquals(List.of(), results, "one of two confirmed");
        listener.get().acked(2, false);
        settleLoop();
        assertEquals(List.of("confirmed"), results);
    }

    @Test
    void aReturnedOutputFailsTheDeliveryOnceNamingItsQueue() throws Exception {
        start(true, true);
        InboundDelivery delivery = delivered(1);
        List<String> results = new CopyOnWriteArrayList<>();
        on(() -> record(settler.publishOutputs(delivery, List.of(output("nowhere"), output("invoices"))), results));
        listener.get().returned(312, "NO_ROUTE", "", "nowhere", output("nowhere").properties(), new byte[0]);
        listener.get().acked(2, true);
        settleLoop();
        assertEquals(List.of("failed: RabbitMQ returned the output to queue 'nowhere' (NO_ROUTE): no queue took it"),
                results);
    }

    @Test
    void whenTheirChannelClosesTheDeliveryIsRequeuedOnItsOwnChannelAndAbandonedWithTheDeliverys() throws Exception {
        start(true, true);
        List<String> own = new CopyOnWriteArrayList<>();
        InboundDelivery first = delivered(1);
        on(() -> record(settler.publishOutputs(first, List.of(output("shipments"))), own));
        listener.get().closed("connection lost");
        settleLoop();
        assertEquals(1, own.size());
        // A cut is no failure of the handler: the delivery goes back to its queue, its outputs may have arrived.
        org.junit.jupiter.api.Assertions.assertTrue(own.get(0).startsWith("requeue: the outputs' channel closed"),
                own.get(0));

        frames.clear();
        start(false, true);
        List<String> shared = new CopyOnWriteArrayList<>();
        InboundDelivery second = delivered(1);
        on(() -> record(settler.publishOutputs(second, List.of(output("shipments"))), shared));
        listener.get().closed("connection lost");
        settleLoop();
        assertEquals(List.of("abandoned"), shared, "the broker requeues the delivery with its channel");
    }

    /** Lets the event loop run what is queued on it, and the ack flush that schedules behind it. */
    private void settleLoop() throws Exception {
        on(() -> {
        });
        on(() -> {
        });
    }

    private void on(Runnable task) throws Exception {
        OnLoop.run(loop, task);
    }
}
