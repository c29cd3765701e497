package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

/** A message body that cannot become the handler's payload: bad input, never retried. */
public final class UndecodablePayloadException extends RuntimeException {

    public UndecodablePayloadException(String reason, Throwable cause) {
        super(reason, cause, false, false);
    }
}
