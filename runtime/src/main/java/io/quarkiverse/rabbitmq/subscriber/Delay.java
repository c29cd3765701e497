package io.quarkiverse.rabbitmq.subscriber;

/**
 * Where the copy of a message waits after its handler returned {@code Outcome.retryAfter(delay)}. Whatever the
 * strategy, the copy carries the retry-count header raised by one and counts against {@code maxAttempts}; a delayed
 * retry at the cap goes to the dead-letter queue at once.
 */
public enum Delay {
    /**
     * The service holds the copy and publishes it back to the work queue when the delay has passed. Needs nothing on
     * the broker. A graceful stop (or a dev-mode restart) publishes the copies still waiting at once; a crash loses
     * them (at most once).
     */
    IN_SERVICE,
    /**
     * The copy waits in RabbitMQ, in the waiting queue ({@code waitingQueue}, default {@code <queue>.retry}) under a
     * per-message expiration; the waiting queue dead-letters it back to the work queue. Survives a crash. A waiting
     * queue releases messages from its head only: a copy with a long delay holds back the shorter ones behind it.
     */
    DLX_TTL,
    /**
     * As {@link #DLX_TTL}, with one waiting queue per delay listed in {@code @Subscriber(delays)}
     * ({@code <waitingQueue>.<delay>}, for example {@code refunds.retry.30s}), each with its own queue TTL: a short
     * delay never waits behind a long one. A {@code retryAfter} with an unlisted delay waits in the queue of the next
     * longer listed delay (never less than asked), or in the longest one.
     */
    DLX_TTL_PER_DELAY,
    /**
     * The copy goes through RabbitMQ's delayed-message exchange ({@code rabbitmq_delayed_message_exchange}, a
     * community plugin not shipped with RabbitMQ), which releases each message when it is due. Needs
     * {@code quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true}.
     */
    PLUGIN
}
