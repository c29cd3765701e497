package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.databind.ObjectReader;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The extension's own reading of one payload type, when no application codec claimed the message: {@code byte[]},
 * {@code String}, {@code Buffer}, {@code JsonObject} and {@code JsonArray} whatever the content type, a Protobuf message
 * type from Protobuf ({@link ProtobufDecoder}), any other type from JSON. JSON is read from the content types publishers
 * send it as ({@code application/json}, a {@code +json} type, {@code text/plain}, {@code application/octet-stream}) or
 * none; another content type is refused, naming it, rather than read as JSON by guess.
 */
abstract class BuiltInDecoder {

    private final String typeName;

    BuiltInDecoder(String typeName) {
        this.typeName = typeName;
    }

    /** The type the payload is decoded into, for messages. */
    final String typeName() {
        return typeName;
    }

    /**
     * @param media the content type, lower case, without parameters; null when none
     * @param properties the message's properties; null when none
     */
    abstract Object decode(byte[] body, String media, AMQP.BasicProperties properties);

    /** The refusal of a content type no codec reads into this type (kept short: it is an ERROR line's reason). */
    final UndecodablePayloadException unclaimed(String media, String builtInTakes) {
        return new UndecodablePayloadException("no codec reads content type '" + LogText.of(media) + "' into "
                + typeName + " (" + builtInTakes + ")", null);
    }

    static BuiltInDecoder bytes() {
        return new BuiltInDecoder("byte[]") {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                return body;
            }
        };
    }

    static BuiltInDecoder text() {
        return new BuiltInDecoder("java.lang.String") {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
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
    }

    static BuiltInDecoder buffer() {
        return new BuiltInDecoder("io.vertx.core.buffer.Buffer") {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                return Buffer.buffer(body);
            }
        };
    }

    static BuiltInDecoder jsonObject() {
        return new BuiltInDecoder("io.vertx.core.json.JsonObject") {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                try {
                    return new JsonObject(Buffer.buffer(body));
                } catch (RuntimeException e) {
                    throw new UndecodablePayloadException("not a JSON object: " + DecodeFailure.describe(e), e);
                }
            }
        };
    }

    static BuiltInDecoder jsonArray() {
        return new BuiltInDecoder("io.vertx.core.json.JsonArray") {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                try {
                    return new JsonArray(Buffer.buffer(body));
                } catch (RuntimeException e) {
                    throw new UndecodablePayloadException("not a JSON array: " + DecodeFailure.describe(e), e);
                }
            }
        };
    }

    /** Any other type, from JSON, with the application's {@code ObjectMapper} (its reader for the type, made once). */
    static BuiltInDecoder json(String typeName, ObjectReader reader) {
        return new BuiltInDecoder(typeName) {
            @Override
            Object decode(byte[] body, String media, AMQP.BasicProperties properties) {
                if (!readsAsJson(media)) {
                    throw unclaimed(media, "JSON is read from application/json, +json, text/plain, "
                            + "application/octet-stream or none");
                }
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
        };
    }

    /**
     * The content types JSON is read from: JSON's own, and the generic ones publishers send it as (Spring AMQP's
     * {@code SimpleMessageConverter} writes {@code text/plain} for a string, many clients
     * {@code application/octet-stream} for bytes).
     */
    static boolean readsAsJson(String media) {
        return media == null || media.equals(ContentTypes.JSON) || media.endsWith("+json")
                || media.equals("text/json") || media.equals(ContentTypes.TEXT) || media.equals(ContentTypes.OCTET_STREAM);
    }
}
