package io.quarkiverse.rabbitmq.subscriber;

/**
 * Operates the application's subscribers at run time; inject it. {@link #pause} cancels a subscriber's consumer:
 * deliveries in flight finish and settle, the rest waits in RabbitMQ, and readiness stays UP and says so;
 * {@link #resume} consumes again. A pause holds across connection losses and resubscriptions until resumed.
 */
public interface Subscriptions {

    /** What a subscriber is doing. */
    enum State {
        /** Not consuming yet: the application is starting. */
        STARTING,
        /** Taking deliveries (or held back by one of its bounds for a moment). */
        CONSUMING,
        /** Paused by {@link #pause} or by its kill switch. */
        PAUSED,
        /** Its channel or connection is being recovered. */
        RECOVERING,
        /** Stopped: the application is stopping, or the subscriber stopped for a reason readiness reports. */
        STOPPED
    }

    /**
     * Stops the subscriber of this queue taking deliveries until {@link #resume}. It returns at once: {@link #state}
     * answers {@link State#PAUSED} from then on, while the consumer's cancel follows on the subscriber's own thread.
     *
     * @throws IllegalArgumentException when no subscriber of this application consumes the queue
     */
    void pause(String queue);

    /** Lets a paused subscriber take deliveries again (a kill switch's pause too). */
    void resume(String queue);

    State state(String queue);
}
