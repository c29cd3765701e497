package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import com.rabbitmq.client.AMQP;

/**
 * One message a handler produced, encoded and ready to publish: what the publish side takes
 * ({@link Settlements#publishOutputs}).
 *
 * @param mandatory whether it is published {@code mandatory} (a return then fails the delivery): every output but a
 *        reply to a direct reply-to address, which RabbitMQ delivers and returns as unroutable all the same
 * @param broker the broker it goes to: its subscription's unless the message named another ({@code Broker.DEFAULT} or
 *        a configured name)
 */
public record Output(String exchange, String routingKey, AMQP.BasicProperties properties, byte[] body,
        boolean mandatory, String broker) {

    /** Where it goes, for messages: "queue 'q'" or "exchange 'x' with routing key 'k'". */
    public String destination() {
        return exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
    }
}
