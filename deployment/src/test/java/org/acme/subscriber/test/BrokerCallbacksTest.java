package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * amqp-client runs a channel's shutdown listeners on the connection's reader thread. While the engine and the broker
 * session hold their locks across a broker round-trip (startup's declarations and the first connection do), the
 * broker closes a second subscriber's channel: if that callback waited for either, the reader would never read the
 * round-trip's reply, and the whole connection would freeze. On the real broker: the consumer is stopped by RabbitMQ's
 * consumer timeout (set to 1 s for this test), as it stops a handler that holds a delivery too long: RabbitMQ 3.10 and
 * 4.0 close its channel, 4.3 cancels the consumer ({@code basic.cancel}, also run on the reader thread). The slow queue
 * is a quorum queue: RabbitMQ 4.3 no longer times out consumers of classic queues.
 */
@Tag("wire")
@Tag("serial")
class BrokerCallbacksTest {

    static final String QUICK = "t.callbacks.quick";
    static final String SLOW = "t.callbacks.slow";

    /**
     * Changes what the whole broker does (or times a fault): never beside another such class, whichever JVM runs it. The
     * serial phase runs these with the tests that use no broker, in several JVMs.
     */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUICK, SLOW).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(BrokerCallbacksTest::restore)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            // Read by each channel when it opens: the application's channels get the short timeout, checked every
            // half second (RabbitMQ checks once a minute by default).
            .setBeforeAllCustomizer(() -> setConsumerTimeout(1_000, 500));

    /** After the application stopped: RabbitMQ's defaults again for the channels of the tests that follow. */
    static void restore() {
        setConsumerTimeout(1_800_000, 60_000);
    }

    /** RabbitMQ's defaults are 30 minutes, checked every 60 s; a channel cannot open without the check's setting. */
    static void setConsumerTimeout(int millis, int checkEveryMillis) {
        try {
            RabbitAdmin.rabbitmqctl("eval", "application:set_env(rabbit, consumer_timeout, " + millis + ").");
            RabbitAdmin.rabbitmqctl("eval", "application:set_env(rabbit, channel_tick_interval, " + checkEveryMillis + ").");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Inject
    Handlers handlers;

    @Inject
    SubscriberEngine engine;

    @Inject
    BrokerSession session;

    @Test
    void aChannelLostWhileTheEngineWaitsForTheBrokerDoesNotFreezeTheConnection() throws Exception {
        // The logs are captured from before the delivery: the broker may stop the subscriber as soon as a second after
        // the handler took it, and a capture begun after that (the test thread slow to get here on a busy machine)
        // would wait for a line already written.
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publish(SLOW, "held"));
            await().until(() -> handlers.slow.size() == 1);
            // What startup does: hold the engine's and the session's locks while waiting for the broker's replies.
            synchronized (engine) {
                synchronized (session) {
                    // RabbitMQ stops the slow subscriber (delivery acknowledgement timed out): 3.10 and 4.0 close its
                    // channel, 4.3 cancels its consumer; either reaches its supervisor, which says so.
                    await().atMost(Duration.ofSeconds(60)).until(() -> logs.errors().stream()
                            .anyMatch(line -> line.contains("stopped consuming queue '" + SLOW + "'")));
                    // A round-trip on the subscribers' connection: the thread that ran the close listener reads its
                    // reply.
                    CompletableFuture<Void> roundTrip = CompletableFuture.runAsync(() -> {
                        try (BrokerChannel channel = session.connection().createChannel()) {
                            channel.declareQueuePassive(QUICK);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                    roundTrip.get(10, TimeUnit.SECONDS);
                }
            }
        }
        handlers.release.countDown();
        // The slow subscriber subscribes again and gets its message back; the other one consumes as before.
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.slow.size() == 2);
        RabbitAdmin.with(admin -> admin.publish(QUICK, "still consuming"));
        await().until(() -> handlers.quick.contains("still consuming"));
    }

    public static class Handlers {
        final List<String> quick = new CopyOnWriteArrayList<>();
        final List<String> slow = new CopyOnWriteArrayList<>();
        final CountDownLatch release = new CountDownLatch(1);

        @Subscriber(QUICK)
        void quick(String body) {
            quick.add(body);
        }

        /** Holds the first delivery past the broker's consumer timeout; handles the redelivery at once. */
        @Subscriber(value = SLOW, type = QueueType.QUORUM)
        void slow(String body) throws InterruptedException {
            slow.add(body);
            if (slow.size() == 1) {
                release.await(90, TimeUnit.SECONDS);
            }
        }
    }
}
