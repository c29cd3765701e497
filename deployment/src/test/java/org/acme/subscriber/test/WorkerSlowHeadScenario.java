package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/**
 * A worker handler's deliveries go from the client's thread straight to the worker pool, and the event loop learns of
 * them only with the next completion. This checks the acks still never cover a delivery still running: the first
 * message's handler blocks while the fifty behind it are handled and acked; RabbitMQ then still counts exactly that
 * one unacknowledged, and it is acked once its handler returns.
 */
/** Run by {@link WireBasicsTest}, which calls each of its methods in one application with the others. */
interface WorkerSlowHeadScenario {

    private SubscriberStatus status() {
        return Scenarios.bean(SubscriberStatus.class);
    }

    static final String QUEUE = "t.worker.slow-head";

    default void acksBehindARunningDeliveryDoNotCoverIt() throws Exception {
        long ackedBefore = status().stats().acked();
        RabbitAdmin.with(admin -> {
            admin.publish(QUEUE, "slow");
            for (int i = 0; i < 50; i++) {
                admin.publish(QUEUE, "fast-" + i);
            }
        });
        await().until(() -> status().stats().acked() == ackedBefore + 50);
        // The acks of the fifty are sent once settled; RabbitMQ's count follows them.
        await().until(() -> unacknowledged() == 1);
        assertEquals(0L, (long) RabbitAdmin.withResult(admin -> admin.depth(QUEUE)));

        Handler.release.countDown();
        await().until(() -> status().stats().acked() == ackedBefore + 51);
        await().until(() -> unacknowledged() == 0);
        assertEquals(51, Handler.handled.get());
    }

    private static int unacknowledged() throws Exception {
        for (String line : RabbitAdmin.rabbitmqctl("list_queues", "name", "messages_unacknowledged")
                .split("\n")) {
            String[] columns = line.trim().split("\\s+");
            if (columns.length == 2 && columns[0].equals(QUEUE)) {
                return Integer.parseInt(columns[1]);
            }
        }
        throw new AssertionError("queue " + QUEUE + " not listed");
    }

    @ApplicationScoped
    public static class Handler {
        static final CountDownLatch release = new CountDownLatch(1);
        static final AtomicInteger handled = new AtomicInteger();

        @Subscriber(QUEUE)
        Outcome handle(String body) throws InterruptedException {
            if (body.equals("slow") && !release.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
            handled.incrementAndGet();
            return Outcome.ack();
        }
    }
}
