package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The work queue exists already, declared by someone else with another delivery limit: startup stops with one error
 * naming the queue, what RabbitMQ says it has, and the arguments the subscription needs.
 */
@Tag("wire")
class QueueWithOtherArgumentsTest {

    static final String QUEUE = "t.other-arguments";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).withDeadLetterQueues()
            .before(admin -> admin.declare(QUEUE, Map.of("x-queue-type", "quorum", "x-delivery-limit", 9))).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, Failures.class))
            .assertException(Failures.mentions("Queue '" + QUEUE + "' exists with other arguments than its subscription "
                    + "needs", "RabbitMQ says: PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange'",
                    "but current is none",
                    "The subscription needs the arguments {x-queue-type=quorum, x-delivery-limit=4, "
                            + "x-dead-letter-exchange=, x-dead-letter-routing-key=" + QUEUE + ".dead, "
                            + "x-dead-letter-strategy=at-least-once, x-overflow=reject-publish}"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handler {
        @Subscriber(value = QUEUE, type = QueueType.QUORUM, maxAttempts = 5, deadLetter = QUEUE + ".dead")
        Outcome handle(String body) {
            return Outcome.ack();
        }
    }
}
