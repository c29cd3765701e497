package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

class DoneStagesTest {

    @Test
    void aCompletedFutureIsReadAtOnce() {
        var stage = CompletableFuture.completedFuture(Outcome.retry());
        assertTrue(DoneStages.isDone(stage));
        assertSame(stage.join(), DoneStages.resultOf(stage));
    }

    @Test
    void aFailedFutureGivesItsCauseUnwrapped() {
        IllegalStateException cause = new IllegalStateException("card processor down");
        assertSame(cause, failureOf(CompletableFuture.failedFuture(cause)));
        // Completed with a CompletionException (as a stage's dependents are): the cause inside it.
        assertSame(cause, failureOf(CompletableFuture.failedFuture(new CompletionException(cause))));
    }

    @Test
    void aCancelledFutureIsAFailure() {
        var stage = new CompletableFuture<Object>();
        stage.cancel(false);
        assertTrue(DoneStages.isDone(stage));
        assertInstanceOf(CancellationException.class, failureOf(stage));
    }

    @Test
    void anIncompleteFutureWaitsForItsCallback() {
        assertFalse(DoneStages.isDone(new CompletableFuture<>()));
    }

    /** A subclass may not answer isDone (the JDK's minimal stage throws): it is left to its callback. */
    @Test
    void otherStagesAreLeftToTheirCallbacks() {
        assertFalse(DoneStages.isDone(CompletableFuture.completedFuture("x").minimalCompletionStage()));
        assertFalse(DoneStages.isDone(new CompletableFuture<>() {
            {
                complete("x");
            }
        }));
    }

    @Test
    void unwrapKeepsWhatIsNotACompletionException() {
        IllegalStateException cause = new IllegalStateException("x");
        assertSame(cause, DoneStages.unwrap(cause));
        CompletionException bare = new CompletionException("no cause", null);
        assertSame(bare, DoneStages.unwrap(bare));
        assertEquals(cause, DoneStages.unwrap(new CompletionException(cause)));
    }

    private static Throwable failureOf(CompletableFuture<?> stage) {
        return ((Verdict) DoneStages.resultOf(stage)).cause();
    }
}
