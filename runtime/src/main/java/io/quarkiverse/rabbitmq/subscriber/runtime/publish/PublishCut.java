package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

/**
 * A confirmed publish that failed because its channel or connection went away before the broker answered, not because
 * the broker refused the message: what was published may be sent again once the connection is back.
 */
public final class PublishCut extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    PublishCut(String message, Throwable cause) {
        super(message, cause);
    }
}
