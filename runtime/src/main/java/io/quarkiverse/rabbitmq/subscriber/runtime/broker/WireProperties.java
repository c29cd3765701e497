package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.impl.ContentHeaderPropertyWriter;

/**
 * Sends message properties through amqp-client's own wire encoding, as a real server round trip would: a consumer of
 * the in-process broker gets the same Java types as from RabbitMQ ({@code LongString} for strings, {@code Long} or
 * {@code Integer} as the sender encoded them), and never an object the publisher still holds.
 */
public final class WireProperties {

    private WireProperties() {
    }

    public static AMQP.BasicProperties roundTrip(AMQP.BasicProperties properties) {
        return decode(encode(properties));
    }

    /** The properties as AMQP's content header encodes them (the outbox keeps them so, type for type). */
    public static byte[] encode(AMQP.BasicProperties properties) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
            DataOutputStream out = new DataOutputStream(bytes);
            // The content header frame: class weight and body size come first, and the reader skips them.
            out.writeShort(0);
            out.writeLong(0);
            ContentHeaderPropertyWriter writer = new ContentHeaderPropertyWriter(out);
            properties.writePropertiesTo(writer);
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot encode message properties " + properties, e);
        }
    }

    /** What {@link #encode} wrote. */
    public static AMQP.BasicProperties decode(byte[] encoded) {
        try {
            return new AMQP.BasicProperties(new DataInputStream(new ByteArrayInputStream(encoded)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot decode message properties of " + encoded.length + " bytes", e);
        }
    }
}
