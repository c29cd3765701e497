package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import com.rabbitmq.client.AMQP;

/**
 * One publish the copy publisher writes: a copy, a dead letter or an output, all alike to it.
 *
 * @param what what it is, for the words of an answer ("the output", "the copy of delivery 7 ...")
 * @param destination where it goes, in words ("queue 'shipments'")
 */
record Outgoing(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties, byte[] body,
        String what, String destination) {
}
