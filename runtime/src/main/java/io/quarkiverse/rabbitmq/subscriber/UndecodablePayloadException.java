package io.quarkiverse.rabbitmq.subscriber;

/**
 * A message body that cannot become the handler's payload (not JSON, or not the parameter's type): bad input, never
 * retried. Its class name is what {@link Delivery#EXCEPTION_TYPE_HEADER} and the metrics' {@code error.type} carry for
 * such a message, a stable name to route or alert on; its message says what was expected, never quoting the body.
 */
public final class UndecodablePayloadException extends RuntimeException {

    public UndecodablePayloadException(String reason, Throwable cause) {
        super(reason, cause, false, false);
    }
}
