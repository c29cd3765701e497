package org.acme.docs.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The outputs page: outputs leave with the ack, an optional event, an output no queue takes, a reply. */
class OutputsSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Orders.class, Order.class, Shipment.class, Shipped.class,
                    Returns.class, OrderReturn.class, Returned.class, Quotes.class, QuoteRequest.class, Quote.class,
                    Lost.class))
            .withConfigurationResource("docs/outputs.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    RabbitPublisher publisher;

    @Inject
    Orders orders;

    @Test
    void anOrdersOutputsReachTheirQueuesAndTheOrderIsAcked() {
        broker.publish("orders", new Order("o-1"));
        broker.awaitIdle();
        assertEquals(List.of("o-1"), orders.dispatched());
        assertEquals(List.of("o-1"), orders.emailed());
        assertEquals(0, broker.queue("orders").depth());
        assertEquals(0, broker.queue("orders.dead").depth());
    }

    @Test
    void anOptionalEventNoQueueTakesIsNoFailure() {
        broker.publish("returns", new OrderReturn("o-2"));
        broker.awaitIdle();
        assertEquals(0, broker.queue("returns").depth());
        assertEquals(0, broker.queue("returns.dead").depth());
    }

    @Test
    void anOutputNoQueueTakesFailsTheDeliveryUpToItsDeadLetterQueue() {
        broker.publish("lost", "o-3");
        broker.awaitIdle();
        List<InProcessBroker.QueuedMessage> dead = broker.messages("lost.dead");
        assertEquals(1, dead.size());
        assertEquals(OutputNotPublishedException.class.getName(), dead.get(0).header(Delivery.EXCEPTION_TYPE_HEADER));
    }

    @Test
    void aReplyReachesTheRequester() {
        Quote quote = publisher.request("quotes", new QuoteRequest("q-1"), Quote.class, Duration.ofSeconds(10))
                .await().atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-1", 42), quote);
    }

    /** A handler of the test's own, whose output has no queue. */
    static class Lost {
        @Subscriber(value = "lost", maxAttempts = 2, deadLetter = "lost.dead")
        Outcome forward(String order, Outputs outputs) {
            outputs.send("nowhere", order);
            return Outcome.ack();
        }
    }
}
