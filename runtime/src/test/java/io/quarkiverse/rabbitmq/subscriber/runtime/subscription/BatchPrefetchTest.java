package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The prefetch a subscription consumes with: its own, else the configured default; a batch handler's at least its
 * batch size (a smaller one could never fill a batch), and 0 (unlimited) stays unlimited.
 */
class BatchPrefetchTest {

    private static SubscriberDefinition definition(int prefetch, int batchSize) {
        return new SubscriberDefinition(SubscriptionSpec.builder("q").prefetch(prefetch).build(), "org.acme.H#m",
                SubscriberDefinition.PayloadKind.STRING, "java.lang.String", 1, 0, -1, -1,
                SubscriberDefinition.ReturnKind.VOID, SubscriberDefinition.ExecutionModel.WORKER, null, null, batchSize,
                batchSize == 0 ? 0 : 100);
    }

    @Test
    void aBatchHandlersPrefetchHoldsABatch() {
        assertEquals(500, definition(0, 500).prefetch(250), "the default raised to the batch size");
        assertEquals(250, definition(0, 100).prefetch(250), "a default that holds a batch stays");
        assertEquals(600, definition(600, 500).prefetch(250), "the subscription's own (the build checked it holds one)");
        assertEquals(0, definition(0, 500).prefetch(0), "unlimited stays unlimited");
    }

    @Test
    void aSingleHandlersPrefetchIsItsOwnElseTheDefault() {
        assertEquals(250, definition(0, 0).prefetch(250));
        assertEquals(10, definition(10, 0).prefetch(250));
    }
}
