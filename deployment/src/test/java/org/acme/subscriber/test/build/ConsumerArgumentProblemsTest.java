package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Consumer arguments that cannot work fail the build, every problem at once: one RabbitMQ does not know for a
 * consumer, a priority that is no whole number, a timeout on a classic queue (RabbitMQ 4.3 times out quorum queues'
 * consumers only) or below 1 ms, a text that is not name=value; an override is judged like the annotation.
 */
class ConsumerArgumentProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.ca.override\".consumer-arguments.\"x-priority\"",
                    "high")
            .assertException(Failures.mentions(
                    "Handlers#unknown(java.lang.String) declares consumer argument x-stream-offset=first: RabbitMQ "
                            + "knows x-priority and x-consumer-timeout for a consumer of a queue",
                    "Handlers#notANumber(java.lang.String) declares consumer argument x-priority=soon: it must be a "
                            + "whole number",
                    "Handlers#classicTimeout(java.lang.String) declares consumer argument x-consumer-timeout=1000: "
                            + "RabbitMQ times out the consumers of quorum queues only",
                    "Handlers#zeroTimeout(java.lang.String) declares consumer argument x-consumer-timeout=0: it must "
                            + "be a whole number of 1 or more",
                    "Handlers#notNameValue(java.lang.String) declares consumer argument 'x-priority', which is not "
                            + "name=value",
                    "Handlers#overridden(java.lang.String) declares consumer argument x-priority=high"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.ca.unknown", consumerArguments = "x-stream-offset=first")
        void unknown(String body) {
        }

        @Subscriber(value = "b.ca.nan", consumerArguments = "x-priority=soon")
        void notANumber(String body) {
        }

        @Subscriber(value = "b.ca.classic", consumerArguments = "x-consumer-timeout=1000")
        void classicTimeout(String body) {
        }

        @Subscriber(value = "b.ca.zero", type = QueueType.QUORUM, consumerArguments = "x-consumer-timeout=0")
        void zeroTimeout(String body) {
        }

        @Subscriber(value = "b.ca.nv", consumerArguments = "x-priority")
        void notNameValue(String body) {
        }

        @Subscriber(value = "b.ca.override", consumerArguments = "x-priority=1")
        void overridden(String body) {
        }
    }
}
