package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** A batch handler's result, item by item: its outcomes, or the batch's failure for every item. */
class BatchReadingTest {

    private static BatchReading reading(SubscriberDefinition.ReturnKind kind) {
        return new BatchReading(new SubscriberDefinition(SubscriptionSpec.builder("q").build(), "org.acme.H#m",
                SubscriberDefinition.PayloadKind.STRING, "java.lang.String", 1, 0, -1, -1, kind,
                SubscriberDefinition.ExecutionModel.WORKER, null, null, 10, 100));
    }

    @Test
    void eachItemGetsItsOwnOutcomeAndTheOthersAnAck() {
        Object[] items = reading(SubscriberDefinition.ReturnKind.OUTCOME).perItem(BatchOutcome.ack().retry(1)
                .deadLetter(3, "bad").retryAfter(2, Duration.ofSeconds(5)).drop(4).with(4, Outcome.ack()), 5, false);
        assertEquals(Outcome.ack(), items[0]);
        assertEquals(Outcome.Kind.RETRY, ((Outcome) items[1]).kind());
        assertEquals(Duration.ofSeconds(5), ((Outcome) items[2]).delay());
        assertEquals("bad", ((Outcome) items[3]).reason());
        assertEquals(Outcome.ack(), items[4], "a later call for the same item wins");
        assertTrue(BatchReading.acks(items, 0));
        assertTrue(!BatchReading.acks(items, 1));
    }

    @Test
    void anOutcomeNamingAnItemOutsideTheListFailsTheWholeBatch() {
        Object[] items = reading(SubscriberDefinition.ReturnKind.OUTCOME).perItem(BatchOutcome.ack().retry(7), 3,
                false);
        for (Object item : items) {
            Verdict failed = assertInstanceOf(Verdict.class, item);
            assertTrue(failed.cause().getMessage().contains("names item 7 of a batch of 3"),
                    failed.cause().getMessage());
        }
    }

    @Test
    void voidAcksEveryItemANullBatchOutcomeFailsEveryItem() {
        assertEquals(Outcome.ack(), reading(SubscriberDefinition.ReturnKind.VOID).perItem(null, 2, false)[1]);
        assertEquals(Outcome.ack(), reading(SubscriberDefinition.ReturnKind.ASYNC_VOID).perItem(null, 2, true)[1]);
        assertInstanceOf(Verdict.class,
                reading(SubscriberDefinition.ReturnKind.OUTCOME).perItem(null, 2, false)[0]);
    }

    @Test
    void aThrowOrTheKillSwitchIsEveryItems() {
        Verdict thrown = Verdict.thrown(new IllegalStateException("down"));
        Object[] items = reading(SubscriberDefinition.ReturnKind.OUTCOME).perItem(thrown, 3, false);
        assertSame(thrown, items[2]);
        assertSame(Verdict.NOT_RUN,
                reading(SubscriberDefinition.ReturnKind.OUTCOME).perItem(Verdict.NOT_RUN, 2, false)[1]);
    }
}
