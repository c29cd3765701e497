package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.IOException;

/** The server refused a method: its reply code and text, as RabbitMQ sends them in channel.close. */
public final class BrokerException extends IOException {

    public static final int ACCESS_REFUSED = 403;
    public static final int NOT_FOUND = 404;
    public static final int PRECONDITION_FAILED = 406;
    public static final int NO_ROUTE = 312;
    public static final int COMMAND_INVALID = 503;

    private final int replyCode;
    private final String replyText;

    public BrokerException(int replyCode, String replyText, Throwable cause) {
        super(replyText, cause);
        this.replyCode = replyCode;
        this.replyText = replyText;
    }

    public int replyCode() {
        return replyCode;
    }

    /** E.g. {@code PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'q' in vhost '/': ...}. */
    public String replyText() {
        return replyText;
    }
}
