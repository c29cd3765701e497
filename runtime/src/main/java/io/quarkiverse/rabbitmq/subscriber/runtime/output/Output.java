package io.quarkiverse.rabbitmq.subscriber.runtime.output;

import com.rabbitmq.client.AMQP;

/**
 * One message a handler produced, encoded and ready to publish.
 *
 * @param mandatory whether it is published {@code mandatory} (a return then fails the delivery): every output but a
 *        reply to a direct reply-to address, which RabbitMQ delivers and returns as unroutable all the same
 */
public record Output(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body,
        boolean mandatory) {

    /** The prefix of RabbitMQ's direct reply-to addresses. */
    static final String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

    /** Where it goes, for messages: "queue 'q'" or "exchange 'x' with routing key 'k'". */
    public String destination() {
        return exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
    }
}
