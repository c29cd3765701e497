package org.acme.subscriber.test.backoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The back-off on RabbitMQ, shortened by configuration ({@code queues."<queue>".backoff.*} over the annotation's):
 * 200 ms, then 400 ms, then 400 ms (the bound), measured between the deliveries, in the service, in a waiting queue
 * (the per-message expiration) and on a quorum queue; the cap ends each in the dead-letter queue with the failure.
 */
@Tag("wire")
class BackoffOnRabbitMqTest extends BackoffScenarios {

    static final long[] WAITS_MS = { 200, 400, 400 };

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(BackoffHandlers.QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = withShortBackoff(new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BackoffHandlers.class)));

    static QuarkusUnitTest withShortBackoff(QuarkusUnitTest test) {
        for (String queue : List.of(BackoffHandlers.IN_SERVICE, BackoffHandlers.WAITING, BackoffHandlers.QUORUM)) {
            String prefix = "quarkus.rabbitmq-subscriber.queues.\"" + queue + "\".backoff.";
            test.overrideConfigKey(prefix + "initial", "200ms")
                    .overrideConfigKey(prefix + "multiplier", "2")
                    .overrideConfigKey(prefix + "max", "400ms");
        }
        return test;
    }

    @Override
    void backsOff(String queue) throws Exception {
        String body = "pay:" + queue;
        publish(queue, body);
        until(() -> depth(queue + ".dead") == 1);
        assertEquals(List.of(1, 2, 3, 4), handlers.attempts(body));
        List<Long> times = handlers.times(body);
        for (int i = 0; i < WAITS_MS.length; i++) {
            long waitedMs = (times.get(i + 1) - times.get(i)) / 1_000_000;
            // RabbitMQ expires a message on its millisecond timer: a few ms of slack, never a quick retry.
            assertTrue(waitedMs >= WAITS_MS[i] - 5, "attempt " + (i + 2) + " came " + waitedMs + " ms after the one "
                    + "before, not " + WAITS_MS[i] + ": " + queue);
        }
        Fetched dead = drain(queue + ".dead").get(0);
        assertEquals(IllegalStateException.class.getName(), String.valueOf(header(dead, "x-exception-type")));
        assertEquals(4, ((Number) header(dead, "x-retry-count")).intValue());
    }
}
