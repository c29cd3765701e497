package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.vertx.core.json.JsonArray;

/** A {@code JsonArray} payload, as a {@code JsonObject} one: taken as it is, both ways. */
class JsonArrayPayloadTest {

    @Test
    void aJsonArrayIsDecodedAsItIsAndAnythingElseIsRefusedNamingIt() {
        PayloadDecoder decoder = new Codecs(new ObjectMapper(), java.util.List.of(), Long.MAX_VALUE).decoder(JsonArray.class);
        assertEquals("io.vertx.core.json.JsonArray", decoder.expectedType());
        assertEquals(new JsonArray().add("a").add(2), decoder.decode("[\"a\",2]".getBytes(StandardCharsets.UTF_8), null));
        UndecodablePayloadException refused = assertThrows(UndecodablePayloadException.class,
                () -> decoder.decode("{\"a\":2}".getBytes(StandardCharsets.UTF_8), null));
        assertTrue(refused.getMessage().contains("not a JSON array"), refused.getMessage());
    }

    @Test
    void aJsonArrayIsEncodedAsItIs() {
        assertArrayEquals("[\"a\",2]".getBytes(StandardCharsets.UTF_8),
                new PayloadEncoder(new ObjectMapper()).encode(new JsonArray().add("a").add(2), null, null).body());
        assertEquals("application/json",
                new PayloadEncoder(new ObjectMapper()).encode(new JsonArray(), null, null).contentType());
    }
}
