package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.LinkedHashMap;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;

/**
 * An application's message ready to publish: its body, its properties ({@link OutgoingProperties}) with its headers
 * as the observers leave them (a trace context added), and the observers' record of it, to end once sent.
 */
record Prepared(byte[] body, AMQP.BasicProperties properties, PublishObservation observation) {

    /** Encodes and builds it; a failure ends the observation and is thrown. */
    static Prepared of(OutgoingMessage message, PayloadEncoder encoder, Observers observers) {
        PayloadEncoder.Encoded encoded = encoder.encode(message.payload(), message.contentType(),
                message.contentEncoding());
        // A map of our own: observers add to it.
        Map<String, Object> headers = new LinkedHashMap<>(encoded.headersWith(message.headers()));
        PublishObservation observation = observers.publishing(message.exchange(), message.routingKey(), headers);
        try {
            return new Prepared(encoded.body(), OutgoingProperties.of(message, encoded.contentType(), headers),
                    observation);
        } catch (RuntimeException e) {
            observation.done(e);
            throw e;
        }
    }
}
