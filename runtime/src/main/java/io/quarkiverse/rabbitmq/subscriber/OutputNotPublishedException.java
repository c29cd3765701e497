package io.quarkiverse.rabbitmq.subscriber;

/**
 * A handler answered {@code ack}, but one of its outputs did not reach a queue (nacked, returned, not confirmed in
 * time, refused): the delivery fails as if the handler had thrown this, and its copies and dead letter say why. Its
 * class name is what {@link Delivery#EXCEPTION_TYPE_HEADER} and the metrics' {@code error.type} carry then, a stable
 * name to route or alert on.
 */
public final class OutputNotPublishedException extends RuntimeException {

    public OutputNotPublishedException(String why) {
        super(why, null, false, false);
    }
}
