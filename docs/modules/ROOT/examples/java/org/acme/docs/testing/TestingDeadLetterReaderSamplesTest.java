package org.acme.docs.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The testing page's dead-letter reader: an application of its own, since the first tests expect nothing to read
 * refunds.dead.
 */
class TestingDeadLetterReaderSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Refunds.class, Refund.class, Processor.class,
                    RefundReview.class, DeadRefunds.class))
            .withConfigurationResource("docs/testing.properties");

    @Inject
    InProcessBroker broker;

    @Inject
    Processor processor;

    // tag::reader[]
    @Inject
    DeadRefunds deadRefunds;

    @Test
    void aRefundTheProcessorNeverAnswersReachesTheReviewer() {
        processor.script("0000", List.of(Processor.Answer.UNAVAILABLE));
        broker.publish("refunds", new Refund(102, "0000", 1250));
        broker.awaitIdle(); // five deliveries, the dead letter and its review

        assertEquals(0, broker.queue("refunds.dead").depth()); // the reader took it
        assertTrue(deadRefunds.entries().contains(new DeadRefunds.Entry(new Refund(102, "0000", 1250), 5)));
    }
    // end::reader[]
}
