package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A waiting queue must have no consumer and serve one work queue: one that is its own work queue, its dead-letter
 * queue, another subscriber's queue or another subscription's waiting queue fails the build.
 */
class WaitingQueueConflictsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#own(java.lang.String) sets waitingQueue = 'b.c.own', its own queue",
                    "Handlers#dead(java.lang.String) sets waitingQueue = 'b.c.dead.dlq', its dead-letter queue",
                    "Queue 'b.c.other' is both the work queue of a subscriber and the waiting queue of 'b.c.first'",
                    "Queue 'b.c.shared' is both the waiting queue of 'b.c.second' and the waiting queue of 'b.c.third'"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.c.own", delay = Delay.DLX_TTL, waitingQueue = "b.c.own")
        Outcome own(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.c.dead", delay = Delay.DLX_TTL, waitingQueue = "b.c.dead.dlq", maxAttempts = 3, deadLetter = "b.c.dead.dlq")
        Outcome dead(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.c.first", delay = Delay.DLX_TTL, waitingQueue = "b.c.other")
        Outcome first(String body) {
            return Outcome.ack();
        }

        @Subscriber("b.c.other")
        Outcome other(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.c.second", delay = Delay.DLX_TTL, waitingQueue = "b.c.shared")
        Outcome second(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.c.third", delay = Delay.DLX_TTL, waitingQueue = "b.c.shared")
        Outcome third(String body) {
            return Outcome.ack();
        }
    }
}
