package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A header table that cannot be decoded (an entry of a field type AMQP does not have) never reaches a subscriber:
 * RabbitMQ parses the table on publish and closes the publisher's connection (3.10.8: 541 INTERNAL_ERROR). The subscriber's
 * connection is untouched, the queue stays empty, and the next message is handled.
 */
@Tag("wire")
class UndecodableHeaderTableTest {

    static final String QUEUE = "t.bad.table";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, RawAmqp.class, CapturedLogs.class));

    @Inject
    Handler handler;

    @Inject
    SubscriberStatus status;

    @Test
    void rabbitMqRefusesItAtPublish() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            String answer = RawAmqp.publishWithUndecodableHeaders(QUEUE);
            // RabbitMQ 3.10.8 answers 541 INTERNAL_ERROR (its channel fails parsing the table); any close will do.
            assertNotNull(answer, "RabbitMQ said nothing");
            assertTrue(answer.matches("5\\d\\d .*"), "RabbitMQ closes the publisher's connection: " + answer);
            assertEquals(0L, (long) RabbitAdmin.withResult(admin -> admin.depth(QUEUE)));
            RabbitAdmin.with(admin -> admin.publish(QUEUE, "next"));
            await().until(() -> handler.received.contains("next"));
            assertEquals(List.of("next"), handler.received);
            assertTrue(status.notReady().isEmpty(), status.notReady()::toString);
            assertEquals(List.of(), logs.errors());
            assertEquals(List.of(), logs.warnings());
        }
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
