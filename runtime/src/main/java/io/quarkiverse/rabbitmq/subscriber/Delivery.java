package io.quarkiverse.rabbitmq.subscriber;

import java.util.Map;
import java.util.OptionalInt;

import com.rabbitmq.client.AMQP;

/**
 * What RabbitMQ said about the message a handler is given. Declare it as a handler parameter beside the payload.
 */
public interface Delivery {

    /**
     * The default name of the header the runtime keeps its own delivery count in, on the copies it publishes back;
     * {@code quarkus.rabbitmq-subscriber.retry-count-header} changes it.
     */
    String RETRY_COUNT_HEADER = "x-retry-count";

    /**
     * The header the runtime names the class of a handler's failure in: an exception it threw, a failed {@code Uni} or
     * {@code CompletionStage}, or a body that could not be decoded. Written on a classic queue under a cap
     * ({@code maxAttempts}), on the copy a failure publishes and, at the cap, on the dead letter: the latest failure's
     * (later copies keep it like any other header). Quorum queues and classic queues without a cap settle the original
     * itself and write none. A copy or dead letter whose headers would not fit the connection's {@code frame_max} may
     * go without it (after {@link #EXCEPTION_MESSAGE_HEADER}, which goes first).
     */
    String EXCEPTION_TYPE_HEADER = "x-exception-type";

    /**
     * The header the runtime puts the failure's exception message in, at most 1,000 characters ({@code ""} when the
     * exception has none), beside {@link #EXCEPTION_TYPE_HEADER} on the same copies and dead letters. A copy or dead
     * letter whose headers would not fit the connection's {@code frame_max} goes without it first.
     */
    String EXCEPTION_MESSAGE_HEADER = "x-exception-message";

    /** The queue the message was consumed from. */
    String queue();

    /** The exchange the message was published to ({@code ""} for the default exchange). */
    String exchange();

    /** The routing key the message was published with. */
    String routingKey();

    /** Whether RabbitMQ delivered this message before (to this or another consumer). */
    boolean redelivered();

    /** Quorum queues: how many times the message was delivered before, from {@code x-delivery-count}. */
    OptionalInt redeliveryCount();

    /**
     * The deliveries of this message so far, this one included, from the retry-count header; {@code 1} when the header
     * is absent.
     */
    int retryCount();

    /** The message headers; never {@code null}. */
    Map<String, Object> headers();

    /** One header, or {@code null}. */
    Object header(String name);

    /** The message id property, or {@code null}. */
    String messageId();

    /** All the message's properties. */
    AMQP.BasicProperties properties();
}
