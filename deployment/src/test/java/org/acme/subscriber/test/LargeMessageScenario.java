package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/**
 * A 70 MiB body: RabbitMQ takes it (its max_message_size is 128 MiB) but amqp-client's own limit (64 MiB) made the
 * connection close at each try to deliver it, for ever. The connections now read up to
 * {@code quarkus.rabbitmq-subscriber.max-message-size} (128 MiB by default): it is delivered once and acked, on the
 * same connection, with nothing logged at WARN or above.
 */
/** Run by {@link WireBasicsTest}, which calls each of its methods in one application with the others. */
interface LargeMessageScenario {

    private Handler handler() {
        return Scenarios.bean(Handler.class);
    }

    private SubscriberStatus status() {
        return Scenarios.bean(SubscriberStatus.class);
    }

    static final String QUEUE = "t.large";

    default void aBodyAboveAmqpClientsDefaultLimitIsDeliveredOnce() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publishRaw(QUEUE, new byte[70 * 1024 * 1024],
                    new AMQP.BasicProperties.Builder().messageId("large").build()));
            await().atMost(Duration.ofSeconds(30)).until(() -> handler().sizes.size() == 1
                    && RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) == 0);
            assertEquals(70 * 1024 * 1024, handler().sizes.get(0));
            assertTrue(status().notReady().isEmpty(), status().notReady()::toString);
            assertEquals(List.of(), logs.errors());
            assertEquals(List.of(), logs.warnings());
        }
    }

    public static class Handler {
        final List<Integer> sizes = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(byte[] body) {
            sizes.add(body.length);
        }
    }
}
