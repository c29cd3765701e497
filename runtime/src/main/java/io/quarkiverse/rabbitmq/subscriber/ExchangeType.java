package io.quarkiverse.rabbitmq.subscriber;

import java.util.Locale;

/** The four exchange types of AMQP 0-9-1, as RabbitMQ routes them. */
public enum ExchangeType {
    /** Routes to the queues bound with exactly the message's routing key. */
    DIRECT,
    /** Routes by pattern: words separated by dots, {@code *} matches one word and {@code #} zero or more. */
    TOPIC,
    /** Routes to every bound queue, whatever the routing key. */
    FANOUT,
    /** Routes by the message's headers against each binding's arguments ({@code x-match} all or any). */
    HEADERS;

    /** The type's name on the wire: {@code direct}, {@code topic}, {@code fanout}, {@code headers}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
