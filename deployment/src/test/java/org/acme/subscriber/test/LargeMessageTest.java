package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A 70 MiB body: RabbitMQ takes it (its max_message_size is 128 MiB) but amqp-client's own limit (64 MiB) made the
 * connection close at each try to deliver it, for ever. The connections now read up to
 * {@code quarkus.rabbitmq-subscriber.max-message-size} (128 MiB by default): it is delivered once and acked, on the
 * same connection, with nothing logged at WARN or above.
 */
@Tag("wire")
class LargeMessageTest {

    static final String QUEUE = "t.large";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class));

    @Inject
    Handler handler;

    @Inject
    SubscriberStatus status;

    @Test
    void aBodyAboveAmqpClientsDefaultLimitIsDeliveredOnce() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publishRaw(QUEUE, new byte[70 * 1024 * 1024],
                    new AMQP.BasicProperties.Builder().messageId("large").build()));
            await().atMost(Duration.ofSeconds(30)).until(() -> handler.sizes.size() == 1
                    && RabbitAdmin.withResult(admin -> admin.depth(QUEUE)) == 0);
            assertEquals(70 * 1024 * 1024, handler.sizes.get(0));
            assertTrue(status.notReady().isEmpty(), status.notReady()::toString);
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
