package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Batch;
import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Every way a batch handler cannot work fails the build, all in one failure: batch on a single payload, a List
 * without batch (pointing at T[] for a JSON array), a size below 1, a wait of zero or no duration, a single Outcome
 * from a batch handler, a BatchOutcome without batch, a single Delivery in a batch handler, a List of deliveries
 * without batch, a prefetch below the size.
 */
class BatchProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Reading.class, Failures.class))
            .assertException(Failures.mentions(
                    "Handlers#single(org.acme.subscriber.test.build.BatchProblemsTest$Reading) has batch = @Batch(...) "
                            + "but its payload is org.acme.subscriber.test.build.BatchProblemsTest$Reading: a batch "
                            + "handler takes a List<",
                    "Handlers#list(java.util.List<org.acme.subscriber.test.build.BatchProblemsTest$Reading>) takes a List "
                            + "payload",
                    "or take BatchProblemsTest$Reading[] (or a record holding the list) to decode one message whose "
                            + "body is a JSON array",
                    "sets batch = @Batch(size = 0)",
                    "sets @Batch(maxWait = \"0ms\"): a batch waits longer than zero",
                    "sets @Batch(maxWait = \"soon\"), which is not a duration",
                    "Handlers#outcome(java.util.List<org.acme.subscriber.test.build.BatchProblemsTest$Reading>) returns "
                            + "io.quarkiverse.rabbitmq.subscriber.Outcome: a batch handler returns BatchOutcome",
                    "Handlers#batchOutcome(org.acme.subscriber.test.build.BatchProblemsTest$Reading) returns "
                            + "io.quarkiverse.rabbitmq.subscriber.BatchOutcome without batch",
                    "takes a Delivery but is a batch handler: take a List<Delivery>",
                    "takes a List<Delivery> without batch",
                    "sets prefetch = 10 below its @Batch(size = 100)"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    public record Reading(String sensor, double value) {
    }

    static class Handlers {
        @Subscriber(value = "bp.single", batch = @Batch(size = 10))
        void single(Reading reading) {
        }

        @Subscriber("bp.list")
        void list(List<Reading> readings) {
        }

        @Subscriber(value = "bp.size", batch = @Batch(size = 0))
        void size(List<Reading> readings) {
        }

        @Subscriber(value = "bp.zero-wait", batch = @Batch(size = 10, maxWait = "0ms"))
        void zeroWait(List<Reading> readings) {
        }

        @Subscriber(value = "bp.no-duration", batch = @Batch(size = 10, maxWait = "soon"))
        void noDuration(List<Reading> readings) {
        }

        @Subscriber(value = "bp.outcome", batch = @Batch(size = 10))
        Outcome outcome(List<Reading> readings) {
            return Outcome.ack();
        }

        @Subscriber("bp.batch-outcome")
        BatchOutcome batchOutcome(Reading reading) {
            return BatchOutcome.ack();
        }

        @Subscriber(value = "bp.delivery", batch = @Batch(size = 10))
        void delivery(List<Reading> readings, Delivery delivery) {
        }

        @Subscriber("bp.deliveries")
        void deliveries(Reading reading, List<Delivery> deliveries) {
        }

        @Subscriber(value = "bp.prefetch", prefetch = 10, batch = @Batch(size = 100))
        void prefetch(List<Reading> readings) {
        }
    }
}
