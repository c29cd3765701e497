package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;

class UniResultsTest {

    @Test
    void anItemCompletesTheStageWithIt() throws Exception {
        assertEquals("ack", UniResults.toCompletionStage(Uni.createFrom().item("ack")).toCompletableFuture().get());
    }

    @Test
    void aFailureFailsTheStageWithIt() {
        IllegalStateException failure = new IllegalStateException("card processor down");
        CompletableFuture<Object> stage = UniResults.toCompletionStage(Uni.createFrom().failure(failure))
                .toCompletableFuture();
        ExecutionException thrown = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, stage::get);
        assertSame(failure, thrown.getCause());
    }

    @Test
    void aLaterItemCompletesItThenAndTheUniIsSubscribedOnce() throws Exception {
        AtomicInteger subscriptions = new AtomicInteger();
        CompletableFuture<String> later = new CompletableFuture<>();
        CompletableFuture<Object> stage = UniResults.toCompletionStage(Uni.createFrom().completionStage(later)
                .onSubscription().invoke(subscriptions::incrementAndGet)).toCompletableFuture();
        assertFalse(stage.isDone());
        later.complete("done");
        assertEquals("done", stage.get());
        assertEquals(1, subscriptions.get());
    }

    @Test
    void aNullUniFailsTheStageNamingIt() {
        CompletableFuture<Object> stage = UniResults.toCompletionStage(null).toCompletableFuture();
        assertTrue(stage.isCompletedExceptionally());
        ExecutionException thrown = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class, stage::get);
        assertInstanceOf(NullPointerException.class, thrown.getCause());
        assertTrue(thrown.getCause().getMessage().contains("null instead of a Uni"));
    }
}
