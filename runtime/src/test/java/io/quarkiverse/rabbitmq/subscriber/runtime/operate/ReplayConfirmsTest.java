package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

/** A replay's confirms, kept by the one ConfirmTracker: what each copy's outcome says, without a broker. */
class ReplayConfirmsTest {

    private final ReplayConfirms confirms = new ReplayConfirms();

    @Test
    void aConfirmCompletesWithNothingWrongAndAMultipleOneEveryEarlierCopy() {
        CompletableFuture<String> first = confirms.expect(1, copy("a"), "refunds");
        CompletableFuture<String> second = confirms.expect(2, copy("b"), "refunds");
        confirms.acked(2, true);
        assertNull(first.getNow("open"));
        assertNull(second.getNow("open"));
    }

    @Test
    void aReturnBeforeItsConfirmSaysNoQueueTookIt() {
        CompletableFuture<String> outcome = confirms.expect(1, copy("a"), "refunds");
        confirms.returned(312, "NO_ROUTE", "", "refunds", copy("a"), new byte[0]);
        confirms.acked(1, false);
        assertEquals("RabbitMQ returned the copy (NO_ROUTE): no queue 'refunds' exists", outcome.getNow("open"));
    }

    @Test
    void aNackOrAClosedChannelSaysSo() {
        CompletableFuture<String> nacked = confirms.expect(1, copy("a"), "refunds");
        CompletableFuture<String> cut = confirms.expect(2, copy("b"), "refunds");
        confirms.nacked(1, false);
        assertEquals("RabbitMQ nacked the copy", nacked.getNow("open"));
        assertFalse(cut.isDone());
        confirms.closed("connection reset");
        assertEquals("the channel closed (connection reset)", cut.getNow("open"));
    }

    private static AMQP.BasicProperties copy(String messageId) {
        return new AMQP.BasicProperties.Builder().messageId(messageId).build();
    }
}
