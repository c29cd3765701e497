package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryDelay;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A server's delayed retry ({@code @RetryDelay}) that cannot work fails the build, every problem at once: on a classic
 * queue, beside a back-off or a delay strategy (the server waits; nothing else may), a wait that is no duration, a
 * bound shorter than the first wait or without one, the server's arguments written by hand; an override is judged like
 * the annotation.
 */
class RetryDelayProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.rd.override\".retry-delay.min", "soon")
            .assertException(Failures.mentions(
                    "Handlers#classic(java.lang.String) sets retryDelay on classic queue 'b.rd.classic': only quorum "
                            + "queues delay retries on the server (RabbitMQ 4.3 and later)",
                    "Handlers#withBackoff(java.lang.String) sets both retryDelay and backoff",
                    "Handlers#withWaitingQueue(java.lang.String) sets delay = DLX_TTL with retryDelay",
                    "Handlers#notADuration(java.lang.String) sets @RetryDelay(min): 'soon' is not a duration",
                    "Handlers#shrinking(java.lang.String) sets @RetryDelay(min = \"1m\", max = \"1s\"): the longest "
                            + "wait is shorter than the first",
                    "Handlers#maxOnly(java.lang.String) sets @RetryDelay(max = \"1m\") without min",
                    "Handlers#byHand(java.lang.String) declares queue argument x-delayed-retry-min=1000: the extension "
                            + "sets the server's delayed retry; use retryDelay",
                    "Handlers#overridden(java.lang.String) sets @RetryDelay(min): 'soon' is not a duration"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.rd.classic", retryDelay = @RetryDelay(min = "1s"))
        void classic(String body) {
        }

        @Subscriber(value = "b.rd.backoff", type = QueueType.QUORUM, maxAttempts = 3, deadLetter = "b.rd.backoff.dead", retryDelay = @RetryDelay(min = "1s"), backoff = @Backoff(initial = "1s"))
        void withBackoff(String body) {
        }

        @Subscriber(value = "b.rd.waiting", type = QueueType.QUORUM, delay = Delay.DLX_TTL, retryDelay = @RetryDelay(min = "1s"))
        void withWaitingQueue(String body) {
        }

        @Subscriber(value = "b.rd.duration", type = QueueType.QUORUM, retryDelay = @RetryDelay(min = "soon"))
        void notADuration(String body) {
        }

        @Subscriber(value = "b.rd.shrinking", type = QueueType.QUORUM, retryDelay = @RetryDelay(min = "1m", max = "1s"))
        void shrinking(String body) {
        }

        @Subscriber(value = "b.rd.max", type = QueueType.QUORUM, retryDelay = @RetryDelay(max = "1m"))
        void maxOnly(String body) {
        }

        @Subscriber(value = "b.rd.hand", type = QueueType.QUORUM, arguments = "x-delayed-retry-min=1000")
        void byHand(String body) {
        }

        @Subscriber(value = "b.rd.override", type = QueueType.QUORUM, retryDelay = @RetryDelay(min = "1s"))
        void overridden(String body) {
        }
    }
}
