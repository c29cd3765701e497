package org.acme.docs.batches;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The batches page: a batch closes at maxWait, is stored in one call, and one bad item is dead-lettered alone. */
class BatchesSamplesTest {

    @RegisterExtension
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Readings.class, Reading.class, ReadingStore.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    ReadingStore store;

    @Test
    void aBatchClosesAtMaxWaitAndSettlesItemByItem() {
        broker.publish("readings", new Reading("s-1", 20.5));
        broker.publish("readings", new Reading(null, 0));
        broker.publish("readings", new Reading("s-2", 21.0));
        broker.awaitIdle();
        assertEquals(List.of(), store.inserts(), "the batch is not full: it waits for maxWait");

        broker.advance(Duration.ofMillis(100));
        broker.awaitIdle();
        assertEquals(List.of(List.of(new Reading("s-1", 20.5), new Reading("s-2", 21.0))), store.inserts());
        assertEquals(0, broker.queue("readings").depth());
        assertEquals(0, broker.queue("readings").unacked());
        List<InProcessBroker.QueuedMessage> dead = broker.messages("readings.dead");
        assertEquals(1, dead.size());
        assertTrue(String.valueOf(dead.get(0).header(Outcome.DEAD_LETTER_REASON_HEADER)).startsWith("no sensor in "));
    }
}
