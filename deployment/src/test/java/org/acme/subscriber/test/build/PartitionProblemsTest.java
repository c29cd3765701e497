package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Binding;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryDelay;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Ordered partitions that cannot keep the order of their keys fail the build, every problem at once: more than one
 * message of a partition at a time, a retry that waits outside the partition (a waiting queue, the server's delayed
 * retry), bindings that bypass the hashing, batches, an unknown key, a count out of range, a key without partitions,
 * a partition queue another subscriber consumes; an override is judged like the annotation.
 */
class PartitionProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.part.override\".partition-key", "color")
            .assertException(Failures.mentions(
                    "Handlers#concurrent(java.lang.String) sets concurrency = 4 with partitions: a partition is "
                            + "handled one message at a time",
                    "Handlers#waiting(java.lang.String) sets delay = DLX_TTL with partitions",
                    "Handlers#serverDelay(java.lang.String) sets retryDelay with partitions",
                    "Handlers#bound(java.lang.String) sets bindings with partitions: messages reach the partition "
                            + "queues through the consistent-hash exchange 'b.part.bound' only",
                    "Handlers#batched(java.util.List<java.lang.String>) sets both batch and partitions",
                    "Handlers#unknownKey(java.lang.String) sets partitionKey = 'colour': use \"routing-key\"",
                    "Handlers#tooMany(java.lang.String) sets partitions = 5000: it must be between 1 and 1024",
                    "Handlers#keyAlone(java.lang.String) sets partitionKey = 'message-id' without partitions",
                    "Handlers#sac(java.lang.String) sets x-single-active-consumer with partitions",
                    "Queue 'b.part.clash.1' is both partition 1 of 'b.part.clash' and another subscription's queue",
                    "Handlers#overridden(java.lang.String) sets partitionKey = 'color': use \"routing-key\""));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.part.concurrent", partitions = 4, concurrency = 4)
        void concurrent(String body) {
        }

        @Subscriber(value = "b.part.waiting", partitions = 4, maxAttempts = 3, deadLetter = "b.part.waiting.dead", delay = Delay.DLX_TTL)
        void waiting(String body) {
        }

        @Subscriber(value = "b.part.server", partitions = 4, type = QueueType.QUORUM, retryDelay = @RetryDelay(min = "1s"))
        void serverDelay(String body) {
        }

        @Subscriber(value = "b.part.bound", partitions = 4, bindings = @Binding(exchange = "b.part.events", keys = "#"))
        void bound(String body) {
        }

        @Subscriber(value = "b.part.batched", partitions = 4, batch = @Batch(size = 10))
        BatchOutcome batched(List<String> bodies) {
            return BatchOutcome.ack();
        }

        @Subscriber(value = "b.part.key", partitions = 4, partitionKey = "colour")
        void unknownKey(String body) {
        }

        @Subscriber(value = "b.part.many", partitions = 5000)
        void tooMany(String body) {
        }

        @Subscriber(value = "b.part.alone", partitionKey = "message-id")
        void keyAlone(String body) {
        }

        @Subscriber(value = "b.part.sac", partitions = 2, arguments = "x-single-active-consumer=true")
        void sac(String body) {
        }

        @Subscriber(value = "b.part.clash", partitions = 2)
        void clash(String body) {
        }

        @Subscriber("b.part.clash.1")
        void clashing(String body) {
        }

        @Subscriber(value = "b.part.override", partitions = 2)
        void overridden(String body) {
        }
    }
}
