package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

import org.jboss.logging.Logger;

/**
 * What became of a group of publishes (a copy, a dead letter, or a delivery's outputs): the broker confirmed every one,
 * or the first thing that went wrong with one of them. Each publisher of a group reads it for what it means to the
 * delivery it published for ({@link CopyAnswers} for a copy; the outputs stage for outputs); the copy publisher only
 * says what happened.
 *
 * @param kind what happened
 * @param why in words, naming what was published and where (null when confirmed)
 * @param refusal when RabbitMQ closed the channel refusing this very publish for what it is ({@link RefusedCopies}),
 *        its words; else null
 */
public record PublishAnswer(Kind kind, String why, String refusal) {

    public enum Kind {
        /** Every publish of the group was confirmed, or written where no confirm is asked for. */
        CONFIRMED,
        /** RabbitMQ nacked one. */
        NACKED,
        /** Mandatory, and no queue took one. */
        RETURNED,
        /** RabbitMQ did not confirm one in time. */
        TIMED_OUT,
        /** The client refused to send one (a frame too large, say): nothing was sent and the channel is open. */
        REFUSED_BY_CLIENT,
        /**
         * The publishes' own channel closed before RabbitMQ answered (or was closed when one was to be written): the
         * delivery is still the subscriber's to settle.
         */
        CUT,
        /** The delivery's own channel, which carried them, is gone: the broker requeues the delivery with it. */
        GONE
    }

    /** One instance: a confirm allocates nothing. */
    public static final PublishAnswer CONFIRMED = new PublishAnswer(Kind.CONFIRMED, null, null);

    /**
     * Runs {@code then} with the answer: at once when the group is answered already (written unconfirmed, or not
     * written), so that a failure of {@code then} reaches the caller as any synchronous step's would; else when the
     * broker answers, on the subscriber's event loop, logging a failure of {@code then} instead of losing it in the
     * stage.
     */
    public static void whenAnswered(CompletionStage<PublishAnswer> answer, Consumer<PublishAnswer> then) {
        CompletableFuture<PublishAnswer> future = answer.toCompletableFuture();
        if (future.isDone()) {
            then.accept(future.join());
            return;
        }
        future.thenAccept(then).exceptionally(failure -> {
            Logger.getLogger(PublishAnswer.class).errorf(failure, "Acting on RabbitMQ's answer for a publish failed");
            return null;
        });
    }

    public boolean confirmed() {
        return kind == Kind.CONFIRMED;
    }

    /** A cut of the publishes' own channel, no refusal of what was published: no failure of the handler. */
    public boolean cutOnly() {
        return kind == Kind.CUT && refusal == null;
    }

    /** The delivery went with its channel: nothing is to be sent for it. */
    public boolean gone() {
        return kind == Kind.GONE;
    }
}
