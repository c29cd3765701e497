package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * A handler answered {@code ack}, but one of its outputs did not reach a queue (nacked, returned, not confirmed in
 * time, refused): the delivery fails as if the handler had thrown this, and its dead letter says why.
 */
public final class OutputNotPublishedException extends RuntimeException {

    public OutputNotPublishedException(String why) {
        super(why, null, false, false);
    }
}
