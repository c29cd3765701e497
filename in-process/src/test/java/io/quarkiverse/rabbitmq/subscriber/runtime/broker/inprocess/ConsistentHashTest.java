package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The in-process consistent-hash exchange's bucket choice and refusals, without a broker (the conformance suite
 * compares routing with RabbitMQ's plugin).
 */
class ConsistentHashTest {

    @Test
    void aKeyKeepsItsBucketAndAnAddedBucketTakesOnlyItsShare() {
        Random random = new Random(7);
        int moved = 0;
        int keys = 10_000;
        for (int i = 0; i < keys; i++) {
            long key = random.nextLong();
            long four = ConsistentHash.jump(key, 4);
            assertTrue(four >= 0 && four < 4);
            assertEquals(four, ConsistentHash.jump(key, 4), "the same key, the same bucket");
            long five = ConsistentHash.jump(key, 5);
            if (five != four) {
                // A key that moves goes to the new bucket only: partitions 0-3 keep the order of the keys they keep.
                assertEquals(4, five);
                moved++;
            }
        }
        assertTrue(moved > keys / 10 && moved < keys * 3 / 10, "about a fifth of the keys move: " + moved);
    }

    @Test
    void refusalsAreRabbitMqsWords() {
        assertEquals("PRECONDITION_FAILED - The binding key must be an integer: <<\"abc\">>",
                ConsistentHash.refusalOfBinding("abc"));
        assertEquals("PRECONDITION_FAILED - The binding key must be greater than 0", ConsistentHash.refusalOfBinding("0"));
        assertNull(ConsistentHash.refusalOfBinding("3"));
        assertEquals("PRECONDITION_FAILED - hash-header and hash-property are mutually exclusive",
                ConsistentHash.refusalOfArguments(Map.of("hash-header", "h", "hash-property", "message_id")));
        assertEquals("PRECONDITION_FAILED - Unsupported property: app_id",
                ConsistentHash.refusalOfArguments(Map.of("hash-property", "app_id")));
        assertNull(ConsistentHash.refusalOfArguments(Map.of("hash-property", "correlation_id")));
    }
}
