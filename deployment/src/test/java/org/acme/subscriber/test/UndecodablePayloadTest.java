package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A body that is not the JSON the handler expects is bad input: one clear error, rejected once without requeue
 * (into the queue's own dead-letter route), and the consumer goes on with the next message.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class UndecodablePayloadTest {

    static final String QUEUE = "t.undecodable";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).withDeadLetterQueues()
            .before(admin -> admin.declareWithDeadLetterQueue(QUEUE)).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.SEVERE.intValue()
                    && record.getLoggerName().startsWith("io.quarkiverse.rabbitmq.subscriber"))
            .assertLogRecords(UndecodablePayloadTest::exactlyOneClearError);

    @Inject
    Refunds refunds;

    @Test
    void rejectsOnceLogsAndGoesOn() {
        RabbitAdmin.with(admin -> {
            admin.publish(QUEUE, "{not json", "bad-1");
            admin.publish(QUEUE, "{\"id\":7,\"card\":\"4242\",\"amountCents\":1500}", "good-1");
            await().until(() -> refunds.processed.size() == 1);
            assertEquals(new Refund(7, "4242", 1500), refunds.processed.get(0));
            await().until(() -> admin.depth(QUEUE + ".dead") == 1);
            assertEquals("{not json", RabbitAdmin.body(admin.drain(QUEUE + ".dead").get(0)));
            assertEquals(0, admin.depth(QUEUE));
        });
    }

    /** Checked once the application stopped: the bad message produced one error, and it names what is at fault. */
    static void exactlyOneClearError(List<java.util.logging.LogRecord> records) {
        List<String> errors = records.stream().map(r -> ((org.jboss.logmanager.ExtLogRecord) r).getFormattedMessage())
                .toList();
        assertEquals(1, errors.size(), () -> "expected one error, got " + errors);
        String error = errors.get(0);
        assertTrue(error.contains("message-id bad-1"), error);
        assertTrue(error.contains("'" + QUEUE + "'"), error);
        assertTrue(error.contains(Refund.class.getName()), error);
    }

    public record Refund(long id, String card, long amountCents) {
    }

    public static class Refunds {
        final List<Refund> processed = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        Outcome process(Refund refund) {
            processed.add(refund);
            return Outcome.ack();
        }
    }
}
