package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

/** One publish as an observer follows it. */
public interface PublishObservation {

    PublishObservation NONE = failure -> {
    };

    /** The publish is over: confirmed, or written when unconfirmed ({@code failure} null), or failed. */
    void done(Throwable failure);
}
