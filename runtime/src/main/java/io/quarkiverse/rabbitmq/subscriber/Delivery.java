package io.quarkiverse.rabbitmq.subscriber;

import java.util.Map;
import java.util.OptionalInt;

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

    /**
     * On a copy or dead letter the runtime published of a message that came through an exchange: the exchange the
     * original was published to. {@link #exchange()} reads it.
     */
    String ORIGINAL_EXCHANGE_HEADER = "x-original-exchange";

    /** Beside {@link #ORIGINAL_EXCHANGE_HEADER}: the routing key the original was published with. */
    String ORIGINAL_ROUTING_KEY_HEADER = "x-original-routing-key";

    /**
     * On every copy or dead letter the runtime published: the queue the original was consumed from, written by the
     * first copy and kept by later ones (as {@link #ORIGINAL_EXCHANGE_HEADER}), so that {@code DeadLetters.replay} can
     * send a dead letter back to it.
     */
    String ORIGINAL_QUEUE_HEADER = "x-original-queue";

    /**
     * On every copy, dead letter and replay the runtime published of a message whose publisher set {@code user-id}: that
     * user. The runtime publishes as its own user (RabbitMQ refuses another's {@code user-id} from it), and
     * {@link #properties()} gives a handler the publisher's back on each copy.
     */
    String ORIGINAL_USER_ID_HEADER = "x-original-user-id";

    /** The queue the message was consumed from. */
    String queue();

    /**
     * The exchange the message was published to ({@code ""} for the default exchange). On every copy the runtime
     * publishes (a retry, a delayed retry) it is still the original's, from {@link #ORIGINAL_EXCHANGE_HEADER}, so a
     * handler sees the same value on each attempt. That header is read only on a message the runtime wrote itself (see
     * the Security page): on any other, this is the exchange the message came through, whatever a publisher wrote.
     */
    String exchange();

    /** The routing key the message was published with; on a copy, the original's, as {@link #exchange()}. */
    String routingKey();

    /** Whether RabbitMQ delivered this message before (to this or another consumer). */
    boolean redelivered();

    /** Quorum queues: how many times the message was delivered before, from {@code x-delivery-count}. */
    OptionalInt redeliveryCount();

    /**
     * The deliveries of this message so far, this one included, from the retry-count header; {@code 1} when the header
     * is absent.
     */
    int attempt();

    /**
     * The message headers, never {@code null}, with plain Java values: text as {@code String} (amqp-client reads it as
     * its {@code LongString}, which equals no {@code String}), nested tables and arrays alike.
     */
    Map<String, Object> headers();

    /** One header, or {@code null}, as {@link #headers()} gives it. */
    Object header(String name);

    /** The message id property, or {@code null}. */
    String messageId();

    /**
     * The reply-to property: where the publisher wants an answer, or {@code null}. A request sent through RabbitMQ's
     * direct reply-to (as {@code RabbitPublisher.request} sends) carries an {@code amq.rabbitmq.reply-to.*} name the
     * server generated: send the answer to it as to a queue, {@code OutgoingMessage.toQueue(delivery.replyTo())}.
     */
    String replyTo();

    /**
     * The correlation id property, or {@code null}: an answer carries its request's, so that the requester can tell
     * which request it answers.
     */
    String correlationId();

    /**
     * The message's properties, headers aside, in plain Java types. On a copy the runtime published (a retry, a delayed
     * retry, a replay) the {@code user-id} is the original publisher's, as RabbitMQ validated it at the first publish
     * (or {@code null}), not the runtime's own user, which the copy travels under.
     */
    MessageProperties properties();

    /**
     * The message's offset in its stream ({@code type = QueueType.STREAM}): its position in the log, 0 for the first
     * message ever written; {@code -1} for a message from a queue.
     */
    default long offset() {
        return -1;
    }
}
