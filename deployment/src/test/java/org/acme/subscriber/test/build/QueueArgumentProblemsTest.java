package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Queue arguments of the wrong type or range, or ones the extension sets itself, fail the build, from the annotation
 * and from {@code quarkus.rabbitmq-subscriber.queues."<queue>".arguments} alike.
 */
class QueueArgumentProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.args.config\".arguments.\"x-expires\"", "0")
            .assertException(Failures.mentions(
                    "Handlers#notANumber(java.lang.String) declares queue argument x-max-length=lots: it must be a "
                            + "whole number of 0 or more",
                    "Handlers#negative(java.lang.String) declares queue argument x-message-ttl=-1: it must be a whole "
                            + "number of 0 or more",
                    "Handlers#queueType(java.lang.String) declares queue argument x-queue-type=quorum: the extension "
                            + "sets the queue type; use type = QueueType.QUORUM",
                    "Handlers#deliveryLimit(java.lang.String) declares queue argument x-delivery-limit=3: the "
                            + "extension sets the delivery limit",
                    "Handlers#quorumRoute(java.lang.String) declares queue argument x-dead-letter-routing-key=elsewhere:"
                            + " the cap (maxAttempts) of quorum queue 'b.args.route' sets the dead-letter route",
                    "Handlers#quorumDropHead(java.lang.String) declares queue argument x-overflow=drop-head: the cap "
                            + "(maxAttempts) of quorum queue 'b.args.drop' dead-letters at least once",
                    "Handlers#overflow(java.lang.String) declares queue argument x-overflow=spill: it must be one of "
                            + "[drop-head, reject-publish, reject-publish-dlx]",
                    "Handlers#priorityOnQuorum(java.lang.String) declares queue argument x-max-priority=5: quorum "
                            + "queues have no priorities",
                    "Handlers#priorityTooHigh(java.lang.String) declares queue argument x-max-priority=300: it must be "
                            + "a whole number from 1 to 255",
                    "Handlers#singleActive(java.lang.String) declares queue argument x-single-active-consumer=yes: it "
                            + "must be true or false",
                    "Handlers#noEquals(java.lang.String) declares queue argument 'x-max-length', which is not "
                            + "name=value",
                    "Handlers#fromConfig(java.lang.String) declares queue argument x-expires=0: it must be a whole "
                            + "number of 1 or more"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.args.nan", arguments = "x-max-length=lots")
        void notANumber(String body) {
        }

        @Subscriber(value = "b.args.negative", arguments = "x-message-ttl=-1")
        void negative(String body) {
        }

        @Subscriber(value = "b.args.type", arguments = "x-queue-type=quorum")
        void queueType(String body) {
        }

        @Subscriber(value = "b.args.limit", type = QueueType.QUORUM, arguments = "x-delivery-limit=3")
        void deliveryLimit(String body) {
        }

        @Subscriber(value = "b.args.route", type = QueueType.QUORUM, maxAttempts = 3, deadLetter = "b.args.route.dead", arguments = "x-dead-letter-routing-key=elsewhere")
        void quorumRoute(String body) {
        }

        @Subscriber(value = "b.args.drop", type = QueueType.QUORUM, maxAttempts = 3, deadLetter = "b.args.drop.dead", arguments = "x-overflow=drop-head")
        void quorumDropHead(String body) {
        }

        @Subscriber(value = "b.args.overflow", arguments = "x-overflow=spill")
        void overflow(String body) {
        }

        @Subscriber(value = "b.args.priority", type = QueueType.QUORUM, arguments = "x-max-priority=5")
        void priorityOnQuorum(String body) {
        }

        @Subscriber(value = "b.args.priority2", arguments = "x-max-priority=300")
        void priorityTooHigh(String body) {
        }

        @Subscriber(value = "b.args.single", arguments = "x-single-active-consumer=yes")
        void singleActive(String body) {
        }

        @Subscriber(value = "b.args.noequals", arguments = "x-max-length")
        void noEquals(String body) {
        }

        @Subscriber("b.args.config")
        void fromConfig(String body) {
        }
    }
}
