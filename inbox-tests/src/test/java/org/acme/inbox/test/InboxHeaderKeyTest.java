package org.acme.inbox.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code inbox.key=header:<name>}: the header's value is the key (a message-id differs at each publish here, as when a
 * producer republishes a business event); a message without the header is handled in the transaction as usual, at
 * least once, without an inbox row, and said in one WARN. The table is made under a name of the application's
 * ({@code inbox.table}).
 */
@Tag("database")
class InboxHeaderKeyTest {

    static final String QUEUE = "t.inbox.payments";

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_inbox_header_key");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Payments.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.key", "header:payment-id")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.table", "payments_inbox")
            .setLogRecordPredicate(record -> record.getLoggerName().contains("inbox"))
            .assertLogRecords(records -> assertEquals(1, records.stream()
                    .filter(record -> record.getMessage().contains("has no inbox key")).count()));

    @Inject
    InProcessBroker broker;

    @Inject
    Payments payments;

    @Inject
    SubscriberStatus status;

    @Test
    void theHeaderIsTheKey() throws SQLException {
        broker.publish(QUEUE, "pay 10", Map.of("payment-id", "p-1"));
        broker.publish(QUEUE, "pay 10 again", Map.of("payment-id", "p-1"));
        broker.publish(QUEUE, "no key", Map.of());
        broker.publish(QUEUE, "no key either", Map.of());
        await().atMost(Duration.ofSeconds(10)).until(() -> outcomes() == 4);
        // Handled on worker threads at once: either copy of p-1 may be the one handled, the other waits on its row.
        List<String> handled = payments.handled().stream().sorted().toList();
        assertEquals(3, handled.size(), handled.toString());
        assertTrue(handled.containsAll(List.of("no key", "no key either")), handled.toString());
        assertTrue(handled.get(2).startsWith("pay 10"), handled.toString());
        assertEquals(List.of(List.of(QUEUE, "p-1")), database.query("SELECT consumer, message_key FROM payments_inbox"));
        assertTrue(status.outcomes().get(QUEUE).get("duplicate") == 1, status.outcomes().toString());
    }

    long outcomes() {
        return status.outcomes().getOrDefault(QUEUE, Map.of()).values().stream().mapToLong(Long::longValue).sum();
    }

    @ApplicationScoped
    public static class Payments {
        private final List<String> handled = new CopyOnWriteArrayList<>();

        List<String> handled() {
            return handled;
        }

        @Subscriber(value = QUEUE, inbox = true)
        void pay(String payment) {
            handled.add(payment);
        }
    }
}
