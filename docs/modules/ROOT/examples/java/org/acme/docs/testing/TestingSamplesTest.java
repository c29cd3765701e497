package org.acme.docs.testing;

// tag::imports[]
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
// end::imports[]
import org.junit.jupiter.api.extension.RegisterExtension;
// tag::imports[]

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
// end::imports[]
import io.quarkus.test.QuarkusUnitTest;

/**
 * The testing page's first tests. An application writes them in a {@code @QuarkusTest} class, with the switch of
 * testing.properties in its application.properties; the guide's module runs them with QuarkusUnitTest instead, whose
 * application holds only the classes named here.
 */
class TestingSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, Processor.class))
            .withConfigurationResource("docs/testing.properties");

    // tag::body[]
    @Inject
    InProcessBroker broker;

    @Inject
    Processor processor;

    @Test
    void aRefundTheProcessorNeverAnswersEndsInTheDeadLetterQueue() {
        processor.script("0000", List.of(Processor.Answer.UNAVAILABLE));
        broker.publish("refunds", new Refund(101, "0000", 1250));
        broker.awaitIdle(); // five deliveries, then the dead letter

        assertEquals(0, broker.queue("refunds").depth());
        assertEquals(1, broker.queue("refunds.dead").depth());
        InProcessBroker.QueuedMessage dead = broker.messages("refunds.dead").get(0);
        assertEquals(5, ((Number) dead.header("x-retry-count")).intValue());
        assertTrue(dead.bodyAsString().contains("\"id\":101"));
    }

    @Test
    void aBusyRefundComesBackAfterThirtySecondsAndNotBefore() {
        processor.script("4242-busy", List.of(Processor.Answer.BUSY, Processor.Answer.OK));
        broker.publish("refunds", new Refund(201, "4242-busy", 990));
        broker.awaitIdle(); // handled once: the processor was busy
        assertEquals(1, broker.queue("refunds.retry").depth());

        broker.advance(Duration.ofSeconds(29)); // nothing yet
        assertEquals(1, broker.queue("refunds.retry").depth());

        broker.advance(Duration.ofSeconds(1)); // the copy comes back, is handled and acked
        assertEquals(0, broker.queue("refunds.retry").depth());
        assertEquals(0, broker.queue("refunds").depth());
    }
    // end::body[]
}
