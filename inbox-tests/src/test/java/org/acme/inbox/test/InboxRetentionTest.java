package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Inbox rows older than the retention go, in batches, at each cleanup (virtual clock): 2,500 rows of long ago go in
 * three batches of at most 1,000, the rows of messages just handled stay, and a message whose row went is handled
 * again (which is why the retention must outlast every redelivery).
 */
@Tag("database")
class InboxRetentionTest {

    static final String QUEUE = "t.inbox.retention";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_inbox_retention");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.retention", "1h")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.cleanup.interval", "1m");

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Inject
    SubscriberStatus status;

    @Test
    void oldRowsGoInBatchesAndNewOnesStay() throws Exception {
        database.update("INSERT INTO rabbitmq_subscriber_inbox (consumer, message_key, handled_at) SELECT '" + QUEUE
                + "', 'old-' || n, timestamp '2000-01-01 00:00:00' FROM generate_series(1, 2500) n");
        send("new-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> outcome("ack") == 1);
        assertEquals(2501, rows());

        broker.advance(Duration.ofMinutes(1));
        await().atMost(Duration.ofSeconds(20)).until(() -> rows() == 1);
        assertEquals(1, database.count("SELECT count(*) FROM rabbitmq_subscriber_inbox WHERE message_key = 'new-1'"));

        // Past the retention the row goes too, and the same message-id is a new message again.
        broker.advance(Duration.ofMinutes(60));
        // Each cleanup runs on its own thread once its minute falls due: a minute at a time until it has run.
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
            broker.advance(Duration.ofMinutes(1));
            return rows() == 0;
        });
        send("new-1");
        await().atMost(Duration.ofSeconds(10)).until(() -> outcome("ack") == 2);
        assertEquals(0, outcome("duplicate"));
    }

    void send(String messageId) {
        publisher.sendConfirmed(OutgoingMessage.toQueue(QUEUE).payload("x").messageId(messageId)).await()
                .indefinitely();
    }

    long rows() throws SQLException {
        return database.count("SELECT count(*) FROM rabbitmq_subscriber_inbox");
    }

    long outcome(String label) {
        return status.outcomes().getOrDefault(QUEUE, Map.of()).getOrDefault(label, 0L);
    }

    @ApplicationScoped
    public static class Handler {
        @Subscriber(value = QUEUE, inbox = true)
        void handle(String body) {
        }
    }
}
