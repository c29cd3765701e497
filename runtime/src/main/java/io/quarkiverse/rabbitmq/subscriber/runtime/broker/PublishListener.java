package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import com.rabbitmq.client.AMQP;

/** Publisher confirms and returns of a channel in confirm mode. */
public interface PublishListener {

    void acked(long sequenceNumber, boolean multiple);

    void nacked(long sequenceNumber, boolean multiple);

    /** A mandatory message no queue took; it arrives before the message's confirm. */
    void returned(int replyCode, String replyText, String exchange, String routingKey, AMQP.BasicProperties properties,
            byte[] body);

    /** The channel closed, for whatever reason: no confirm will come for what is still unconfirmed. */
    default void closed(String reason) {
    }
}
