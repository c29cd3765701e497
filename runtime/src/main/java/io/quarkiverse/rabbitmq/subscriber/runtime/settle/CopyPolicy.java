package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * How a subscription's settler makes copies and dead letters: the header that counts attempts, where a message goes
 * that no copy can be made of, whether copies are published at all (a handler that can only ack or retry in place
 * needs none), whether an original waits for its copy's confirm, and how long, and whether its handler produces
 * outputs (they go on the same channel as the copies, always confirmed), which user the copies go under, how long
 * a delivery whose copy was refused waits before it goes back to its queue, and which messages' copies RabbitMQ
 * refused before.
 *
 * @param deadLetterQueue null when the subscription has no dead-letter queue
 * @param refusedCopies the subscription's, kept across its channels: a refused message comes back on a fresh one
 */
public record CopyPolicy(String retryCountHeader, String deadLetterQueue, boolean publishesCopies,
        boolean confirmsCopies, Duration confirmTimeout, boolean publishesOutputs, Provenance provenance,
        Duration refusedPause, RefusedCopies refusedCopies) {

    /** The default pause after a refusal ({@code refused-copy-pause}). */
    public static final Duration REFUSED_PAUSE = Duration.ofSeconds(1);

    public CopyPolicy(String retryCountHeader, String deadLetterQueue, boolean publishesCopies, boolean confirmsCopies,
            Duration confirmTimeout, boolean publishesOutputs) {
        this(retryCountHeader, deadLetterQueue, publishesCopies, confirmsCopies, confirmTimeout, publishesOutputs,
                Provenance.NONE, REFUSED_PAUSE, new RefusedCopies());
    }

    /**
     * The subscriber's policy, with the runtime's header name, confirm timeout, user, pause after a refusal and the
     * subscription's memory of refused copies.
     */
    public static CopyPolicy of(SubscriberDefinition definition, String retryCountHeader, Duration confirmTimeout,
            Provenance provenance, Duration refusedPause, RefusedCopies refusedCopies) {
        SubscriptionSpec subscription = definition.subscription;
        return new CopyPolicy(retryCountHeader, subscription.deadLetter, subscription.publishesCopies(),
                // A parked letter is always confirmed before its dead letter is acked.
                subscription.retryPublish == RetryPublish.CONFIRMED || subscription.readsDeadLetters, confirmTimeout,
                definition.outputsIndex >= 0,
                provenance, refusedPause, refusedCopies);
    }
}
