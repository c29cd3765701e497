package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import com.rabbitmq.client.AMQP;

/**
 * What {@code RabbitPublisher} asks where {@code quarkus.rabbitmq-subscriber.outbox.enabled} is on: whether the caller
 * is inside a JTA transaction, and if so to write the message to the outbox in it instead of publishing it now (it is
 * published once the transaction commits). Reached as an {@code Instance}, unsatisfied otherwise, so the publisher
 * never loads a JTA class.
 */
public interface TransactionalSends {

    /** The caller's transaction (its key), or null when the caller is in none. */
    Object transaction();

    /**
     * Writes the message to the outbox in the caller's transaction; it is published after the commit, in the order of
     * the writes, and goes with a rollback. Throws when the transaction is marked for rollback or the write fails.
     *
     * @param broker the broker it is published to ({@code Broker.DEFAULT} or a configured name)
     */
    void write(String broker, String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body);
}
