package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.MessageProperties;

/**
 * amqp-client's properties as the public {@link MessageProperties}, beside {@link PlainHeaders}: the public API gives
 * no client type, so that an application does not depend on the client's.
 */
public final class PlainProperties {

    private static final int PERSISTENT = 2;

    private PlainProperties() {
    }

    public static MessageProperties of(AMQP.BasicProperties properties) {
        Integer priority = properties.getPriority();
        return new MessageProperties(properties.getContentType(), properties.getContentEncoding(),
                Integer.valueOf(PERSISTENT).equals(properties.getDeliveryMode()),
                priority == null ? OptionalInt.empty() : OptionalInt.of(priority), properties.getCorrelationId(),
                properties.getReplyTo(), expiration(properties.getExpiration()), properties.getMessageId(),
                Optional.ofNullable(properties.getTimestamp()).map(java.util.Date::toInstant), properties.getType(),
                properties.getUserId(), properties.getAppId());
    }

    /**
     * RabbitMQ refuses a publish whose expiration is not a non-negative whole number of milliseconds, so what arrives
     * parses; anything else (a peer that is not RabbitMQ) reads as none rather than failing the delivery.
     */
    static Optional<Duration> expiration(String millis) {
        if (millis == null) {
            return Optional.empty();
        }
        try {
            long value = Long.parseLong(millis);
            return value < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(value));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
