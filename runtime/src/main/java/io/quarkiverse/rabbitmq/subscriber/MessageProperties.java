package io.quarkiverse.rabbitmq.subscriber;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A received message's AMQP properties, headers aside ({@link Delivery#headers()} gives those), in plain Java types:
 * what {@link Delivery#properties()} and the test broker's queued messages give, so that an application reads
 * them without amqp-client's types. Where {@link OutgoingMessage} sets a property, the name and type are its.
 *
 * @param contentType the content type, or {@code null}
 * @param contentEncoding the content encoding, or {@code null}
 * @param persistent whether the publisher asked for a persistent message (delivery mode 2)
 * @param priority the priority, when the publisher set one
 * @param correlationId the correlation id, or {@code null}
 * @param replyTo the reply-to, or {@code null}
 * @param expiration the per-message TTL the publisher set, when it set one
 * @param messageId the message id, or {@code null}
 * @param timestamp the timestamp (AMQP's, in whole seconds), when the publisher set one
 * @param type the type property, or {@code null}
 * @param userId the user-id property, or {@code null}: as RabbitMQ validated it at the publish. A handler's
 *        {@link Delivery} gives the original publisher's on a copy the runtime published (see
 *        {@link Delivery#ORIGINAL_USER_ID_HEADER}); the test broker's queued messages give what waits in the queue
 *        (the runtime's own user on its copies and dead letters)
 * @param appId the app id, or {@code null}
 */
public record MessageProperties(String contentType, String contentEncoding, boolean persistent, OptionalInt priority,
        String correlationId, String replyTo, Optional<Duration> expiration, String messageId,
        Optional<Instant> timestamp, String type, String userId, String appId) {
}
