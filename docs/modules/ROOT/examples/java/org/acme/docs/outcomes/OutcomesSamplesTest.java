package org.acme.docs.outcomes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The outcomes page: the Delivery parameter, what each outcome does to the message, and a handler that fails. */
class OutcomesSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Receipts.class, Receipt.class, Table.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    RabbitPublisher publisher;

    @Inject
    Receipts receipts;

    @Inject
    Table table;

    @Test
    void theDeliveryGivesHeadersAndPropertiesInPlainJavaTypes() {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue("receipts").payload(new Receipt("r-1", 500))
                .header("tenant", "acme").messageId("receipt-1"));
        broker.awaitIdle();
        assertEquals(List.of(new Receipts.Stored("r-1", "acme", "receipt-1", "application/json", 1)),
                receipts.stored());
    }

    @Test
    void retryPutsTheMessageBackAndItComesAgainRedelivered() {
        broker.publish("outcome-retry", "once");
        broker.awaitIdle();
        assertEquals(List.of("once false", "once true"), table.retried);
        assertEquals(0, broker.queue("outcome-retry").depth());
    }

    @Test
    void dropDiscardsAMessageOnAQueueWithoutADeadLetterExchange() {
        broker.publish("outcome-drop", "gone");
        broker.awaitIdle();
        assertEquals(0, broker.queue("outcome-drop").depth());
        assertEquals(0, broker.queue("outcome-drop").unacked());
    }

    @Test
    void aFailingHandlerWithoutACapGetsTwoDeliveriesAtMost() {
        broker.publish("outcome-poison", "poison");
        broker.awaitIdle();
        assertEquals(2, table.poisonDeliveries.size(), "requeued once, then rejected without requeue");
        assertEquals(0, broker.queue("outcome-poison").depth());
    }

    /** Handlers of the test's own, one per row of the page's table. */
    static class Table {
        final List<String> retried = new CopyOnWriteArrayList<>();
        final List<String> poisonDeliveries = new CopyOnWriteArrayList<>();

        @Subscriber("outcome-retry")
        Outcome retry(String body, Delivery delivery) {
            retried.add(body + " " + delivery.redelivered());
            return delivery.redelivered() ? Outcome.ack() : Outcome.retry();
        }

        @Subscriber("outcome-drop")
        Outcome drop(String body) {
            return Outcome.drop();
        }

        @Subscriber("outcome-poison")
        void poison(String body) {
            poisonDeliveries.add(body);
            throw new IllegalStateException("cannot handle " + body);
        }
    }
}
