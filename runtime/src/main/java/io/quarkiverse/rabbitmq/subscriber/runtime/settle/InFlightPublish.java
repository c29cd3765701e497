package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * A copy, dead letter or output the broker has not answered for yet, told what it said (on the subscriber's event
 * loop): each kind knows what that means for the delivery it was published for, so the publisher does not ask which
 * kind it holds.
 */
interface InFlightPublish {

    void confirmed();

    void nacked();

    /** Mandatory, and no queue took it. */
    void returned(String replyText);

    void timedOut(long timeoutMillis);

    /**
     * Its channel closed before the broker answered.
     *
     * @param refusedForWhatItIs whether the close is the broker refusing this very publish (see {@link RefusedCopies})
     * @param reason the close's words
     */
    void closed(boolean refusedForWhatItIs, String reason);
}
