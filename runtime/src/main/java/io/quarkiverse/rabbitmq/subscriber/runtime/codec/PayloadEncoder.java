package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.nio.charset.StandardCharsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The inverse of {@link PayloadDecoder}: raw types go as they are, anything else as JSON, so a subscriber decodes
 * what a publisher encoded.
 */
public final class PayloadEncoder {

    private final ObjectMapper mapper;

    public PayloadEncoder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** Whether the payload is sent as JSON (and so gets the {@code application/json} content type). */
    public static boolean isJson(Object payload) {
        return !(payload instanceof byte[] || payload instanceof String || payload instanceof Buffer);
    }

    public byte[] encode(Object payload) {
        if (payload instanceof byte[] bytes) {
            return bytes;
        }
        if (payload instanceof String text) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        if (payload instanceof Buffer buffer) {
            return buffer.getBytes();
        }
        if (payload instanceof JsonObject json) {
            return json.toBuffer().getBytes();
        }
        if (payload instanceof JsonArray json) {
            return json.toBuffer().getBytes();
        }
        try {
            return mapper.writeValueAsBytes(payload);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode a " + payload.getClass().getName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }
}
