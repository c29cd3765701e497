package org.acme.docs.delays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.acme.docs.delays.Processor.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The delays page: a retryAfter waits where each strategy says, and comes back when its delay has passed. */
class DelaysSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Processor.class, Refunds.class, Refund.class, Invoices.class,
                    Invoice.class, Webhooks.class, Webhook.class, Reminders.class, Reminder.class))
            .withConfigurationResource("docs/delays.properties")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    Processor processor;

    @Test
    void inServiceTheCopyWaitsInTheServiceAndComesBackAfterThirtySeconds() {
        processor.script("r-1", Answer.BUSY, Answer.OK);
        broker.publish("refunds", new Refund("r-1"));
        broker.awaitIdle();
        assertEquals(1, processor.calls("r-1"));
        assertEquals(0, broker.queue("refunds").depth(), "acknowledged: the copy is held in the service");

        broker.advance(Duration.ofSeconds(29));
        broker.awaitIdle();
        assertEquals(1, processor.calls("r-1"), "not yet");

        broker.advance(Duration.ofSeconds(1));
        broker.awaitIdle();
        assertEquals(2, processor.calls("r-1"));
    }

    @Test
    void dlxTtlTheCopyWaitsInTheWaitingQueueWithItsExpiration() {
        processor.script("i-1", Answer.BUSY, Answer.OK);
        broker.publish("invoices", new Invoice("i-1"));
        broker.awaitIdle();
        var waiting = broker.messages("invoices.retry");
        assertEquals(1, waiting.size());
        assertEquals(Duration.ofSeconds(30), waiting.get(0).properties().expiration().get());
        assertEquals(2, ((Number) waiting.get(0).header(Delivery.RETRY_COUNT_HEADER)).intValue());
        assertEquals("", broker.queue("invoices.retry").arguments().get("x-dead-letter-exchange"));
        assertEquals("invoices", broker.queue("invoices.retry").arguments().get("x-dead-letter-routing-key"));

        broker.advance(Duration.ofSeconds(30));
        broker.awaitIdle();
        assertEquals(2, processor.calls("i-1"));
        assertEquals(0, broker.queue("invoices.retry").depth());
    }

    @Test
    void dlxTtlPerDelayEachDelayHasItsWaitingQueue() {
        assertEquals(1_000L, ((Number) broker.queue("webhooks.retry.1s").arguments().get("x-message-ttl")).longValue());
        assertEquals(300_000L,
                ((Number) broker.queue("webhooks.retry.5m").arguments().get("x-message-ttl")).longValue());
        processor.script("w-1", Answer.BUSY, Answer.UNAVAILABLE, Answer.OK);
        broker.publish("webhooks", new Webhook("w-1"));
        broker.awaitIdle();
        assertEquals(1, broker.queue("webhooks.retry.30s").depth());

        broker.advance(Duration.ofSeconds(30));
        broker.awaitIdle();
        assertEquals(2, processor.calls("w-1"));
        assertEquals(1, broker.queue("webhooks.retry.5m").depth());

        broker.advance(Duration.ofMinutes(5));
        broker.awaitIdle();
        assertEquals(3, processor.calls("w-1"));
        assertEquals(0, broker.queue("webhooks.retry.5m").depth());
    }

    @Test
    void pluginTheCopyWaitsInTheDelayedMessageExchange() {
        processor.script("m-1", Answer.BUSY, Answer.OK);
        broker.publish("reminders", new Reminder("m-1"));
        broker.awaitIdle();
        assertEquals(1, processor.calls("m-1"));

        broker.advance(Duration.ofSeconds(29));
        broker.awaitIdle();
        assertEquals(1, processor.calls("m-1"), "not yet");

        broker.advance(Duration.ofSeconds(1));
        broker.awaitIdle();
        assertEquals(2, processor.calls("m-1"));
    }
}
