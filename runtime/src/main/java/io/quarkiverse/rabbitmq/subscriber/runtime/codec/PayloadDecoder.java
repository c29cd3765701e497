package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.lang.reflect.Type;
import java.util.List;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;

/**
 * Turns a message body into one payload type (a handler's parameter, a batch's element, a request's reply): its
 * content encoding undone ({@link ContentEncodings}), then read by the first application codec that claims its content
 * type and the type, else by the built-in codec for the type ({@link BuiltInDecoder}), which claims the content types
 * it can read and refuses the others, naming them. One decoder per payload type: the built-in's work for the type (a
 * Jackson reader, a Protobuf parser) is resolved once, not per message.
 */
public final class PayloadDecoder {

    private final Type type;
    private final List<PayloadCodec> codecs;
    private final BuiltInDecoder builtIn;
    private final long maxBytes;

    PayloadDecoder(Type type, List<PayloadCodec> codecs, BuiltInDecoder builtIn, long maxBytes) {
        this.type = type;
        this.codecs = codecs;
        this.builtIn = builtIn;
        this.maxBytes = maxBytes;
    }

    /** The type the payload is decoded into, for messages. */
    public String expectedType() {
        return builtIn.typeName();
    }

    /**
     * Decodes a body as its properties describe it; throws {@link UndecodablePayloadException} when it cannot, saying
     * why without quoting it.
     *
     * @param properties the message's properties (its content type and encoding, its headers); null for none
     */
    public Object decode(byte[] body, AMQP.BasicProperties properties) {
        byte[] plain = properties == null ? body
                : ContentEncodings.decode(body, properties.getContentEncoding(), maxBytes);
        String media = properties == null ? null : ContentTypes.media(properties.getContentType());
        for (int i = 0; i < codecs.size(); i++) {
            PayloadCodec codec = codecs.get(i);
            if (codec.decodes(media, type)) {
                return byCodec(codec, plain, media);
            }
        }
        return builtIn.decode(plain, media, properties);
    }

    private Object byCodec(PayloadCodec codec, byte[] body, String media) {
        Object payload;
        try {
            payload = codec.decode(body, media, type);
        } catch (UndecodablePayloadException e) {
            throw e;
        } catch (Exception | LinkageError e) {
            // Its class only: an exception's message may quote the body, which reaches an ERROR line and a header.
            throw new UndecodablePayloadException("the codec " + name(codec) + " could not read the "
                    + (media == null ? "" : LogText.of(media) + " ") + "body into " + expectedType() + " ("
                    + e.getClass().getName() + ")", e);
        }
        if (payload == null) {
            throw new UndecodablePayloadException("the codec " + name(codec) + " read the body into null",
                    null);
        }
        return payload;
    }

    /** The application's class, not its CDI client proxy's. */
    private static String name(PayloadCodec codec) {
        return io.quarkus.arc.ClientProxy.unwrap(codec).getClass().getName();
    }
}
