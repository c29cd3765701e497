package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.PayloadKind;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Turns a message body into the handler's payload parameter, or into the reply a requester waits for: one rule for
 * both ({@code byte[]}, {@code String}, {@code Buffer}, {@code JsonObject} and {@code JsonArray} as they are, any other type
 * from JSON).
 * One decoder per subscriber: the Jackson reader for the payload type is resolved once, not per message.
 */
public abstract class PayloadDecoder {

    /** The type the payload is decoded into, for messages. */
    public abstract String expectedType();

    /** Decodes the body; throws {@link UndecodablePayloadException} when it cannot. */
    public abstract Object decode(byte[] body);

    public static PayloadDecoder of(SubscriberDefinition definition, ObjectMapper mapper) {
        if (definition.payloadKind != PayloadKind.JSON) {
            return of(definition.payloadKind);
        }
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            JavaType type = mapper.getTypeFactory().withClassLoader(loader)
                    .constructFromCanonical(definition.payloadType);
            return new Json(definition.payloadType, mapper.readerFor(type));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot decode JSON payloads into " + definition.payloadType + " for "
                    + definition.method + ": " + e.getMessage(), e);
        }
    }

    /** A decoder into this type, as a handler's payload parameter of that type is decoded. */
    public static PayloadDecoder of(Class<?> type, ObjectMapper mapper) {
        PayloadKind kind = type == byte[].class ? PayloadKind.BYTES
                : type == String.class ? PayloadKind.STRING
                        : type == Buffer.class ? PayloadKind.BUFFER
                                : type == JsonObject.class ? PayloadKind.JSON_OBJECT
                                        : type == JsonArray.class ? PayloadKind.JSON_ARRAY : PayloadKind.JSON;
        return kind != PayloadKind.JSON ? of(kind) : new Json(type.getTypeName(), mapper.readerFor(type));
    }

    private static PayloadDecoder of(PayloadKind kind) {
        switch (kind) {
            case BYTES:
                return new Fixed("byte[]") {
                    @Override
                    public Object decode(byte[] body) {
                        return body;
                    }
                };
            case STRING:
                return new Fixed("java.lang.String") {
                    @Override
                    public Object decode(byte[] body) {
                        // Strict: a body that is not UTF-8 is not silently turned into replacement characters.
                        try {
                            return StandardCharsets.UTF_8.newDecoder()
                                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                                    .decode(java.nio.ByteBuffer.wrap(body)).toString();
                        } catch (java.nio.charset.CharacterCodingException e) {
                            throw new UndecodablePayloadException("the body is not valid UTF-8 text", e);
                        }
                    }
                };
            case BUFFER:
                return new Fixed("io.vertx.core.buffer.Buffer") {
                    @Override
                    public Object decode(byte[] body) {
                        return Buffer.buffer(body);
                    }
                };
            case JSON_OBJECT:
                return new Fixed("io.vertx.core.json.JsonObject") {
                    @Override
                    public Object decode(byte[] body) {
                        try {
                            return new JsonObject(Buffer.buffer(body));
                        } catch (RuntimeException e) {
                            throw new UndecodablePayloadException("not a JSON object: " + DecodeFailure.describe(e), e);
                        }
                    }
                };
            case JSON_ARRAY:
                return new Fixed("io.vertx.core.json.JsonArray") {
                    @Override
                    public Object decode(byte[] body) {
                        try {
                            return new JsonArray(Buffer.buffer(body));
                        } catch (RuntimeException e) {
                            throw new UndecodablePayloadException("not a JSON array: " + DecodeFailure.describe(e), e);
                        }
                    }
                };
            default:
                throw new IllegalArgumentException("Not a raw payload kind: " + kind);
        }
    }

    private abstract static class Fixed extends PayloadDecoder {
        private final String type;

        Fixed(String type) {
            this.type = type;
        }

        @Override
        public String expectedType() {
            return type;
        }
    }

    private static final class Json extends PayloadDecoder {
        private final String typeName;
        private final ObjectReader reader;

        Json(String typeName, ObjectReader reader) {
            this.typeName = typeName;
            this.reader = reader;
        }

        @Override
        public String expectedType() {
            return typeName;
        }

        @Override
        public Object decode(byte[] body) {
            try {
                Object value = reader.readValue(body);
                if (value == null) {
                    throw new UndecodablePayloadException("the body is JSON null", null);
                }
                return value;
            } catch (java.io.IOException e) {
                throw new UndecodablePayloadException(DecodeFailure.describe(e), e);
            }
        }
    }
}
