package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.CallbackDecorator;
import io.smallrye.mutiny.infrastructure.Infrastructure;

class UniResultsTest {

    @Test
    void anItemCompletesTheStageWithIt() throws Exception {
        assertEquals("ack", UniResults.toCompletionStage(Uni.createFrom().item("ack")).toCompletableFuture().get());
    }

    @Test
    void aUniWithItsItemAtOnceGivesAStageThatIsDoneOnReturn() {
        var stage = UniResults.toCompletionStage(Uni.createFrom().voidItem());
        assertTrue(DoneStages.isDone(stage));
        assertEquals(null, DoneStages.resultOf(stage));
    }

    /**
     * Context propagation decorates every callback handed to Mutiny ({@code subscribe().with(...)} among them) with a
     * capture of every thread context: the runtime's subscription hands it none.
     */
    @Test
    void theSubscriptionHandsMutinyNoCallbackToDecorate() throws Exception {
        AtomicInteger decorated = new AtomicInteger();
        CallbackDecorator counting = new CallbackDecorator() {
            @Override
            public <T> Consumer<T> decorate(Consumer<T> consumer) {
                decorated.incrementAndGet();
                return consumer;
            }
        };
        var field = Infrastructure.class.getDeclaredField("CALLBACK_DECORATORS");
        field.setAccessible(true);
        Object saved = field.get(null);
        field.set(null, new CallbackDecorator[] { counting });
        try {
            Uni.createFrom().item("seen").subscribe().with(item -> {
            }, failure -> {
            });
            assertEquals(2, decorated.get(), "the counting decorator is in place");
            assertEquals("ack", UniResults.toCompletionStage(Uni.createFrom().item("ack")).toCompletableFuture().get());
            assertEquals(2, decorated.get());
        } finally {
            field.set(null, saved);
        }
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
