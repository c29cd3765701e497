package org.acme.subscriber.test.backoff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A failure under {@code @Backoff(initial = "10s", multiplier = 3, max = "60s")} comes back 10 s, 30 s and 60 s later,
 * not a millisecond before, wherever its subscription's delay makes it wait (in the service, in a waiting queue, on a
 * quorum queue), and the cap ends it in the dead-letter queue with the failure's headers. {@code retry()} still means
 * now. On the in-process broker's paused clock, so the 100 seconds pass at once.
 */
class BackoffInProcessTest extends BackoffScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(BackoffHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Test
    void retryStillMeansNow() throws Exception {
        publish(BackoffHandlers.IN_SERVICE, "retry:now");
        until(() -> handlers.attempts("retry:now").size() == 2);
        assertEquals(List.of(1, 2), handlers.attempts("retry:now"), "no time passed on the paused clock");
    }

    @Override
    void backsOff(String queue) throws Exception {
        String body = "pay:" + queue;
        publish(queue, body);
        until(() -> handlers.attempts(body).size() == 1);
        int[] waits = { 10, 30, 60 };
        for (int i = 0; i < waits.length; i++) {
            int before = i + 1;
            broker.advance(Duration.ofSeconds(waits[i]).minusMillis(1));
            assertEquals(before, handlers.attempts(body).size(), "not before " + waits[i] + " s");
            broker.advance(Duration.ofMillis(1));
            until(() -> handlers.attempts(body).size() == before + 1);
        }
        until(() -> depth(queue + ".dead") == 1);
        assertEquals(List.of(1, 2, 3, 4), handlers.attempts(body));
        Fetched dead = drain(queue + ".dead").get(0);
        assertEquals(body, body(dead));
        assertEquals(IllegalStateException.class.getName(), String.valueOf(header(dead, "x-exception-type")));
        assertEquals("the payment service is down for " + body, String.valueOf(header(dead, "x-exception-message")));
        assertEquals(0, depth(queue));
    }
}
