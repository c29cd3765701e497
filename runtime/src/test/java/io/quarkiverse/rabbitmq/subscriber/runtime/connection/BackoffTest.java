package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** Reconnection waits: doubling from the first, bounded, spread by the jitter. */
class BackoffTest {

    @Test
    void doublesUpToTheMaximum() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0);
        assertEquals(1000, backoff.getDelay(1));
        assertEquals(2000, backoff.getDelay(2));
        assertEquals(4000, backoff.getDelay(3));
        assertEquals(16000, backoff.getDelay(5));
        assertEquals(30000, backoff.getDelay(6));
        assertEquals(30000, backoff.getDelay(1000), "no overflow however many attempts");
        assertEquals(1000, backoff.getDelay(0), "amqp-client's first attempt may count from zero");
    }

    @Test
    void jitterStaysWithinItsFraction() {
        Backoff backoff = new Backoff(Duration.ofSeconds(10), Duration.ofSeconds(10), 0.2);
        long smallest = Long.MAX_VALUE;
        long largest = 0;
        for (int i = 0; i < 2000; i++) {
            long delay = backoff.getDelay(1);
            smallest = Math.min(smallest, delay);
            largest = Math.max(largest, delay);
        }
        assertTrue(smallest >= 8000 && largest <= 12000, smallest + ".." + largest);
        assertTrue(largest - smallest > 1000, "the waits spread out: " + smallest + ".." + largest);
    }
}
