package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/**
 * A handler's asynchronous result that was complete before the handler returned (a {@code Uni} with its item at once,
 * {@code CompletableFuture.completedFuture}): read at once, it is settled as a plain result would be, with no callback
 * registered and no request-context state kept for later. On the event loop that is most deliveries of an
 * asynchronous handler, and the callbacks they skip (two {@code whenComplete} per delivery, each with its lambda) were
 * 0.23 s of the 3.37 s the JIT compiled during a pinned cold drain of 100,000 (JFR's compilation events).
 */
public final class DoneStages {

    private DoneStages() {
    }

    /**
     * True when the stage is a plain {@link CompletableFuture} that is complete. Only the plain class is read: a
     * subclass may not answer (the JDK's {@code minimalCompletionStage()} throws on {@code isDone}) or may mean more
     * by its callbacks (a contextual future restores thread contexts in them); those wait for their callback.
     */
    public static boolean isDone(CompletionStage<?> stage) {
        return stage.getClass() == CompletableFuture.class && ((CompletableFuture<?>) stage).isDone();
    }

    /** The value of a stage {@link #isDone done}, or a thrown {@link Verdict} with what it failed with. */
    public static Object resultOf(CompletionStage<?> stage) {
        try {
            return ((CompletableFuture<?>) stage).getNow(null);
        } catch (CompletionException e) {
            return Verdict.thrown(unwrap(e));
        } catch (CancellationException e) {
            return Verdict.thrown(e);
        }
    }

    /** What a stage failed with, without the {@link CompletionException} the JDK wraps it in. */
    public static Throwable unwrap(Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            return failure.getCause();
        }
        return failure;
    }
}
