package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.util.Map;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;

/**
 * The built-in Protobuf codec, for generated message types ({@code com.google.protobuf.Message}) when protobuf-java is
 * on the application's classpath: the body is the message's binary form, the content type
 * {@value PayloadCodec#PROTOBUF_CONTENT_TYPE}, and the {@value PayloadCodec#PROTOBUF_TYPE_HEADER} header names its
 * type ({@code acme.Order}), which reading checks: Protobuf's binary form does not say its type, and a body of another
 * type would otherwise parse into a message of unknown fields. Only this class touches protobuf-java, and only for a
 * type {@link ProtobufTypes#isMessage} said is a Protobuf message: an application without protobuf-java never loads it.
 */
final class Protobuf {

    private Protobuf() {
    }

    /** The reader of one message type: its parser, found once through the generated {@code getDefaultInstance()}. */
    static BuiltInDecoder decoder(Class<?> type) {
        Message prototype;
        try {
            prototype = (Message) type.getMethod("getDefaultInstance").invoke(null);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Cannot read Protobuf messages into " + type.getName()
                    + ": it has no static getDefaultInstance(), as the classes protoc generates have", e);
        }
        Parser<? extends Message> parser = prototype.getParserForType();
        String fullName = prototype.getDescriptorForType().getFullName();
        return new BuiltInDecoder(type.getName()) {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                if (media != null && !readsAsProtobuf(media)) {
                    throw unclaimed(media, "Protobuf is read from " + PayloadCodec.PROTOBUF_CONTENT_TYPE
                            + ", application/protobuf, application/octet-stream or none");
                }
                Map<String, Object> headers = properties == null ? null : properties.getHeaders();
                Object named = headers == null ? null : PlainHeaders.value(headers.get(PayloadCodec.PROTOBUF_TYPE_HEADER));
                if (named != null && !fullName.equals(named.toString())) {
                    throw new UndecodablePayloadException("a Protobuf body of type '" + LogText.of(named.toString())
                            + "' (its " + PayloadCodec.PROTOBUF_TYPE_HEADER + " header) cannot be read as '" + fullName
                            + "' (" + typeName() + ")", null);
                }
                try {
                    return parser.parseFrom(body);
                } catch (InvalidProtocolBufferException e) {
                    throw new UndecodablePayloadException("the body is not a valid Protobuf '" + fullName + "' ("
                            + e.getClass().getSimpleName() + ")", e);
                }
            }
        };
    }

    static boolean readsAsProtobuf(String media) {
        return media.equals(PayloadCodec.PROTOBUF_CONTENT_TYPE) || media.equals("application/protobuf")
                || media.equals("application/vnd.google.protobuf") || media.equals(ContentTypes.OCTET_STREAM);
    }

    /** The message's binary form. */
    static byte[] encode(Object message) {
        return ((Message) message).toByteArray();
    }

    /** The message type's full name, for {@value PayloadCodec#PROTOBUF_TYPE_HEADER}. */
    static String typeName(Object message) {
        return ((Message) message).getDescriptorForType().getFullName();
    }
}
