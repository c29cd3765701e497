package org.acme.docs.delays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.acme.docs.delays.Processor.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The delays page's server delayed retry, on the in-process broker following RabbitMQ 4.3 (an application of its own:
 * 4.3 refuses the delayed-message exchange the other samples use).
 */
class DelaysServerRetrySamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Processor.class, Payouts.class, Payout.class))
            .withConfigurationResource("docs/delays-server-retry.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    Processor processor;

    @Test
    void theServerWaitsLongerAfterEachFailureAndItsLimitEndsTheLoop() {
        processor.script("p-1", Answer.UNAVAILABLE);
        broker.publish("payouts", new Payout("p-1"));
        broker.awaitIdle();
        assertEquals(1, processor.calls("p-1"));
        for (int failures = 1; failures <= 4; failures++) {
            broker.advance(Duration.ofSeconds(failures).minusMillis(1));
            broker.awaitIdle();
            assertEquals(failures, processor.calls("p-1"), "not before " + failures + " s");
            broker.advance(Duration.ofMillis(1));
            broker.awaitIdle();
            assertEquals(failures + 1, processor.calls("p-1"));
        }
        assertEquals(1, broker.queue("payouts.dead").depth(), "the fifth delivery was the last");
        assertEquals(0, broker.queue("payouts").depth());
    }
}
