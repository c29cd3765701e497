package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.lang.reflect.Type;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkus.arc.All;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The application's codecs ({@link PayloadCodec} beans, highest {@code @Priority} first) and the built-ins behind
 * them: the one place decoders and encoders are made, for handlers, batches, replies, outputs, the publisher and the
 * in-process broker alike.
 */
@Singleton
public class Codecs {

    private final ObjectMapper mapper;
    private final List<PayloadCodec> codecs;
    private final long maxBytes;
    private final PayloadEncoder encoder;

    @Inject
    public Codecs(ObjectMapper mapper, @All List<PayloadCodec> codecs, SubscriberConfig config) {
        this(mapper, codecs, config.maxMessageSize().asLongValue());
    }

    /** @param maxBytes the most a compressed body may inflate to */
    public Codecs(ObjectMapper mapper, List<PayloadCodec> codecs, long maxBytes) {
        this.mapper = mapper;
        this.codecs = List.copyOf(codecs);
        this.maxBytes = maxBytes;
        this.encoder = new PayloadEncoder(mapper, this.codecs);
    }

    public PayloadEncoder encoder() {
        return encoder;
    }

    /** The decoder of a handler's payload (a batch handler's: of its list's elements). */
    public PayloadDecoder decoder(SubscriberDefinition definition) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try {
            switch (definition.payloadKind) {
                case BYTES:
                    return decoder(byte[].class);
                case STRING:
                    return decoder(String.class);
                case BUFFER:
                    return decoder(Buffer.class);
                case JSON_OBJECT:
                    return decoder(JsonObject.class);
                case JSON_ARRAY:
                    return decoder(JsonArray.class);
                default:
                    JavaType type = mapper.getTypeFactory().withClassLoader(loader)
                            .constructFromCanonical(definition.payloadType);
                    return decoder(type);
            }
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot decode payloads into " + definition.payloadType + " for "
                    + definition.method + ": " + e.getMessage(), e);
        }
    }

    /**
     * A dead letter's body as its subscription reads it, for a preview ({@code DeadLetters.peek}): for a body whose
     * content type is not text (Protobuf, a binary format of the application's) and that the subscription decodes into
     * an object, the decoded value's text (a Protobuf message's text format, a record's {@code toString}); null where
     * the bytes read as text already (no content type, text, JSON, XML), where the handler takes bytes or text, and
     * where the subscription's codec cannot read it.
     */
    public String readable(SubscriberDefinition definition, byte[] body, com.rabbitmq.client.AMQP.BasicProperties properties) {
        String media = ContentTypes.media(properties.getContentType());
        if (media == null || media.startsWith("text/") || media.equals(ContentTypes.JSON) || media.endsWith("+json")
                || media.endsWith("/xml") || media.endsWith("+xml")
                || definition.payloadKind != SubscriberDefinition.PayloadKind.JSON) {
            return null;
        }
        try {
            return String.valueOf(decoder(definition).decode(body, properties));
        } catch (RuntimeException e) {
            // Undecodable: the bytes are the preview, as they always were.
            return null;
        }
    }

    /** A decoder into this type, as a handler's payload parameter of that type is decoded. */
    public PayloadDecoder decoder(Class<?> type) {
        return decoder(mapper.getTypeFactory().constructType(type));
    }

    private PayloadDecoder decoder(JavaType type) {
        Class<?> raw = type.getRawClass();
        BuiltInDecoder builtIn;
        if (raw == byte[].class) {
            builtIn = BuiltInDecoder.bytes();
        } else if (raw == String.class) {
            builtIn = BuiltInDecoder.text();
        } else if (raw == Buffer.class) {
            builtIn = BuiltInDecoder.buffer();
        } else if (raw == JsonObject.class) {
            builtIn = BuiltInDecoder.jsonObject();
        } else if (raw == JsonArray.class) {
            builtIn = BuiltInDecoder.jsonArray();
        } else if (ProtobufTypes.isMessage(raw)) {
            builtIn = Protobuf.decoder(raw);
        } else {
            builtIn = BuiltInDecoder.json(type.toCanonical(), mapper.readerFor(type));
        }
        return new PayloadDecoder(reflect(type), codecs, builtIn, maxBytes);
    }

    /** Jackson's type as {@link PayloadCodec#decodes} gets it: a class, or a parameterized type of classes. */
    static Type reflect(JavaType type) {
        if (type.containedTypeCount() == 0 || type.isArrayType()) {
            return type.getRawClass();
        }
        Type[] arguments = new Type[type.containedTypeCount()];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = reflect(type.containedType(i));
        }
        return new Parameterized(type.getRawClass(), arguments);
    }

    private record Parameterized(Class<?> raw, Type[] arguments) implements java.lang.reflect.ParameterizedType {
        @Override
        public Type[] getActualTypeArguments() {
            return arguments.clone();
        }

        @Override
        public Type getRawType() {
            return raw;
        }

        @Override
        public Type getOwnerType() {
            return raw.getDeclaringClass();
        }

        @Override
        public String getTypeName() {
            StringBuilder name = new StringBuilder(raw.getTypeName()).append('<');
            for (int i = 0; i < arguments.length; i++) {
                name.append(i == 0 ? "" : ", ").append(arguments[i].getTypeName());
            }
            return name.append('>').toString();
        }
    }
}
