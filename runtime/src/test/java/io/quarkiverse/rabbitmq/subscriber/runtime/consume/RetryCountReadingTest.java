package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.impl.LongStringHelper;

/**
 * The retry count as a number or as text follows one rule: out of range it is clamped (at most the largest int, so a
 * cap ends it at once; at least the first delivery). Text beyond the long range counted as the first delivery, while
 * the same value as a number was clamped to the cap.
 */
class RetryCountReadingTest {

    @Test
    void textAndNumbersAreClampedAlike() {
        assertEquals(Integer.MAX_VALUE, countOf("99999999999999999999"), "text beyond the long range");
        assertEquals(Integer.MAX_VALUE, countOf(LongStringHelper.asLongString("99999999999999999999")));
        assertEquals(Integer.MAX_VALUE, countOf(Long.MAX_VALUE), "the same as a number");
        assertEquals(Integer.MAX_VALUE, countOf(new BigDecimal("1e30")), "an AMQP decimal beyond the long range");
        assertEquals(Integer.MAX_VALUE, countOf("4294967296"));
        assertEquals(1, countOf("-99999999999999999999"), "below: the first delivery, as -5 is");
        assertEquals(1, countOf(-5L));
        assertEquals(3, countOf(" 3 "));
        assertEquals(3, countOf(3));
        assertEquals(1, countOf("three"), "not a count at all: the first");
        assertEquals(1, countOf("1e30"), "not digits");
    }

    private static int countOf(Object header) {
        return new InboundDelivery("q", new Envelope(1, false, "", "q"),
                new AMQP.BasicProperties.Builder().headers(Map.of("x-retry-count", header)).build(), new byte[0],
                "x-retry-count").attempt();
    }
}
