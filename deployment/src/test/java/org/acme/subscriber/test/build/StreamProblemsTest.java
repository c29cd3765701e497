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
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What cannot apply to a stream fails the build, every problem at once: an offset spec that does not parse, an offset
 * on a queue, a waiting queue, a retry publish policy, a delivery limit, a super stream handled more than one message
 * at a time or bound elsewhere, a batch, a filter on a queue and a blank filter value.
 */
class StreamProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#badOffset(java.lang.String) sets offset 'yesterday' does not parse: write first, last, "
                            + "next, offset:<n>",
                    "Handlers#badTimestamp(java.lang.String) sets offset 'timestamp:noon' does not parse",
                    "Handlers#onAQueue(java.lang.String) sets offset = 'first' on a queue of type CLASSIC: only a stream "
                            + "is read from an offset",
                    "Handlers#waiting(java.lang.String) sets delay = DLX_TTL on a stream: a retryAfter on a log waits "
                            + "in place",
                    "Handlers#republished(java.lang.String) sets retryPublish on a stream",
                    "Handlers#limited(java.lang.String) sets deliveryLimit on a stream: a stream counts no deliveries",
                    "Handlers#partitioned(java.lang.String) sets concurrency = 2 with partitions: a super stream's "
                            + "messages are handled one at a time",
                    "Handlers#boundSuperStream(java.lang.String) sets bindings on a super stream",
                    "Handlers#batched(java.util.List<java.lang.String>) sets batch on a stream",
                    "Handlers#filteredQueue(java.lang.String) sets filter on a queue of type QUORUM: only a stream is "
                            + "filtered",
                    "Handlers#blankFilter(java.lang.String) sets a blank filter value"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.stream.offset", type = QueueType.STREAM, offset = "yesterday")
        void badOffset(String body) {
        }

        @Subscriber(value = "b.stream.timestamp", type = QueueType.STREAM, offset = "timestamp:noon")
        void badTimestamp(String body) {
        }

        @Subscriber(value = "b.stream.queue", offset = "first")
        void onAQueue(String body) {
        }

        @Subscriber(value = "b.stream.waiting", type = QueueType.STREAM, maxAttempts = 3, deadLetter = "b.stream.waiting.dead", delay = Delay.DLX_TTL)
        void waiting(String body) {
        }

        @Subscriber(value = "b.stream.republished", type = QueueType.STREAM, maxAttempts = 3, deadLetter = "b.stream.republished.dead", retryPublish = RetryPublish.CONFIRMED)
        void republished(String body) {
        }

        @Subscriber(value = "b.stream.limited", type = QueueType.STREAM, deliveryLimit = 5)
        void limited(String body) {
        }

        @Subscriber(value = "b.stream.partitioned", type = QueueType.STREAM, partitions = 3, concurrency = 2)
        void partitioned(String body) {
        }

        @Subscriber(value = "b.stream.bound", type = QueueType.STREAM, partitions = 3, bindings = @Binding(exchange = "b.stream.events"))
        void boundSuperStream(String body) {
        }

        @Subscriber(value = "b.stream.filtered", type = QueueType.QUORUM, filter = "eu")
        void filteredQueue(String body) {
        }

        @Subscriber(value = "b.stream.blank", type = QueueType.STREAM, filter = { "eu", " " })
        void blankFilter(String body) {
        }

        @Subscriber(value = "b.stream.batched", type = QueueType.STREAM, batch = @Batch(size = 10))
        BatchOutcome batched(List<String> bodies) {
            return BatchOutcome.ack();
        }
    }
}
