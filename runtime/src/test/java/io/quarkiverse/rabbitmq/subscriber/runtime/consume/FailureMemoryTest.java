package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** One requeue per failing message, judged by its id, else by RabbitMQ's redelivered flag. */
class FailureMemoryTest {

    @Test
    void aMessageWithAnIdIsRequeuedOnceEvenWhenItArrivesRedelivered() {
        FailureMemory memory = new FailureMemory();
        // Redelivered because a channel closed before it was handled: its first failure still gets a requeue.
        assertTrue(memory.firstFailure("m-1", true));
        assertFalse(memory.firstFailure("m-1", true));
        // And then it is forgotten: the memory stays small.
        assertTrue(memory.firstFailure("m-1", true));
    }

    @Test
    void aMessageWithoutAnIdFallsBackOnTheRedeliveredFlag() {
        FailureMemory memory = new FailureMemory();
        assertTrue(memory.firstFailure(null, false));
        assertFalse(memory.firstFailure(null, true));
    }

    @Test
    void itIsBounded() {
        FailureMemory memory = new FailureMemory();
        for (int i = 0; i < 20_000; i++) {
            memory.firstFailure("m-" + i, false);
        }
        // The oldest were evicted: m-0 counts as new again.
        assertTrue(memory.firstFailure("m-0", false));
        assertFalse(memory.firstFailure("m-19999", false));
    }
}
