package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import io.quarkiverse.rabbitmq.subscriber.Delivery;

/** A handler's failure, as a copy or dead letter carries it: the exception's class and message. */
public record FailureInfo(String type, String message) {

    /** At most this many characters of the message travel in a header. */
    public static final int MAX_MESSAGE = 1_000;

    /** The names are public API: {@link Delivery#EXCEPTION_TYPE_HEADER}, {@link Delivery#EXCEPTION_MESSAGE_HEADER}. */
    public static final String TYPE_HEADER = Delivery.EXCEPTION_TYPE_HEADER;
    public static final String MESSAGE_HEADER = Delivery.EXCEPTION_MESSAGE_HEADER;

    public static FailureInfo of(Throwable failure) {
        String message;
        try {
            message = failure.getMessage() == null ? "" : failure.getMessage();
        } catch (RuntimeException e) {
            // A user exception whose getMessage() throws still gets settled.
            message = "(getMessage() threw " + e.getClass().getName() + ")";
        }
        return new FailureInfo(failure.getClass().getName(),
                message.length() > MAX_MESSAGE ? message.substring(0, MAX_MESSAGE) : message);
    }
}
