package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/** How a codec is chosen for a body and for a payload, and content encodings both ways. */
class PayloadCodecsTest {

    record Point(int x, int y) {
    }

    /** Reads and writes points as "x,y" under text/csv; claims nothing else. */
    static class CsvPoints implements PayloadCodec {
        @Override
        public boolean decodes(String contentType, Type type) {
            return "text/csv".equals(contentType) && type == Point.class;
        }

        @Override
        public Object decode(byte[] body, String contentType, Type type) {
            String[] parts = new String(body, StandardCharsets.UTF_8).split(",");
            return new Point(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
        }

        @Override
        public boolean encodes(Class<?> type) {
            return type == Point.class;
        }

        @Override
        public String contentType(Class<?> type) {
            return "text/csv";
        }

        @Override
        public byte[] encode(Object payload) {
            Point point = (Point) payload;
            return (point.x() + "," + point.y()).getBytes(StandardCharsets.UTF_8);
        }
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final Codecs codecs = new Codecs(mapper, List.of(new CsvPoints()), 1024);

    @Test
    void theApplicationsCodecReadsWhatItClaimsAndJsonTheRest() {
        PayloadDecoder decoder = codecs.decoder(Point.class);
        assertEquals(new Point(1, 2), decoder.decode(bytes("1,2"), properties("text/CSV; charset=utf-8", null)));
        assertEquals(new Point(3, 4), decoder.decode(bytes("{\"x\":3,\"y\":4}"), properties("application/json", null)));
        // Publishers send JSON as text or bytes, or with no content type at all.
        for (String sentAs : new String[] { null, "text/plain", "application/octet-stream", "application/vnd.acme+json" }) {
            assertEquals(new Point(5, 6), decoder.decode(bytes("{\"x\":5,\"y\":6}"), properties(sentAs, null)), sentAs);
        }
        UndecodablePayloadException unclaimed = assertThrows(UndecodablePayloadException.class,
                () -> decoder.decode(bytes("<point/>"), properties("application/xml", null)));
        assertTrue(unclaimed.getMessage().contains("no codec reads content type 'application/xml' into "
                + Point.class.getName()), unclaimed.getMessage());
    }

    @Test
    void rawTypesTakeAnyContentType() {
        byte[] body = bytes("1,2");
        assertSame(body, codecs.decoder(byte[].class).decode(body, properties("application/xml", null)));
        assertEquals("1,2", codecs.decoder(String.class).decode(body, properties("application/xml", null)));
    }

    @Test
    void aCodecThatThrowsOrGivesNullMakesTheBodyUndecodableWithoutQuotingIt() {
        UndecodablePayloadException thrown = assertThrows(UndecodablePayloadException.class,
                () -> codecs.decoder(Point.class).decode(bytes("secret-4111"), properties("text/csv", null)));
        assertTrue(thrown.getMessage().contains(CsvPoints.class.getName()), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("NumberFormatException"), thrown.getMessage());
        assertTrue(!thrown.getMessage().contains("4111"), thrown.getMessage());
    }

    @Test
    void theCodecGetsTheHandlersGenericType() {
        Type[] seen = new Type[1];
        PayloadCodec spy = new CsvPoints() {
            @Override
            public boolean decodes(String contentType, Type type) {
                seen[0] = type;
                return false;
            }
        };
        Codecs withSpy = new Codecs(mapper, List.of(spy), 1024);
        withSpy.decoder(mapper.getTypeFactory().constructCollectionType(List.class, Point.class).getRawClass())
                .decode(bytes("[]"), null);
        assertEquals(List.class, seen[0]);
        Type generic = Codecs.reflect(mapper.getTypeFactory().constructMapType(Map.class, String.class, Point.class));
        ParameterizedType parameterized = (ParameterizedType) generic;
        assertEquals(Map.class, parameterized.getRawType());
        assertArrayEquals(new Type[] { String.class, Point.class }, parameterized.getActualTypeArguments());
        assertEquals("java.util.Map<java.lang.String, " + Point.class.getName() + ">", generic.getTypeName());
    }

    @Test
    void theEncoderTakesTheApplicationsCodecThenTheBuiltInsWithTheirContentTypes() {
        PayloadEncoder encoder = codecs.encoder();
        PayloadEncoder.Encoded point = encoder.encode(new Point(1, 2), null, null);
        assertEquals("text/csv", point.contentType());
        assertArrayEquals(bytes("1,2"), point.body());
        // Asked for JSON, the codec that writes csv is passed over.
        PayloadEncoder.Encoded asJson = encoder.encode(new Point(1, 2), "application/json", null);
        assertEquals("application/json", asJson.contentType());
        assertEquals("{\"x\":1,\"y\":2}", new String(asJson.body(), StandardCharsets.UTF_8));
        assertEquals("text/plain", encoder.encode("text", null, null).contentType());
        assertEquals("application/octet-stream", encoder.encode(new byte[] { 1 }, null, null).contentType());
        assertEquals("application/octet-stream", encoder.encode(Buffer.buffer("b"), null, null).contentType());
        assertEquals("application/json", encoder.encode(new JsonObject().put("id", 1), null, null).contentType());
        assertEquals("application/json", encoder.encode(Map.of("id", 1), null, null).contentType());
        assertEquals("application/vnd.acme+text", encoder.encode("t", "application/vnd.acme+text", null).contentType());
    }

    @Test
    void gzipAndDeflateAreDoneOnSendingAndUndoneOnReadingAndACharsetIsLeftAlone() {
        String text = "tea ".repeat(1000);
        for (String encoding : new String[] { "gzip", "x-gzip", "deflate", "GZIP" }) {
            PayloadEncoder.Encoded sent = codecs.encoder().encode(text, null, encoding);
            assertTrue(sent.body().length < 200, encoding + ": " + sent.body().length);
            assertEquals(text, new Codecs(mapper, List.of(), 1 << 20).decoder(String.class)
                    .decode(sent.body(), properties("text/plain", encoding)), encoding);
        }
        // Spring AMQP writes the charset there: no compression to undo.
        assertEquals("tea", codecs.decoder(String.class).decode(bytes("tea"), properties("text/plain", "UTF-8")));
    }

    @Test
    void aCompressedBodyIsInflatedWithinTheBoundOnly() {
        byte[] bomb = codecs.encoder().encode("a".repeat(10_000), null, "gzip").body();
        UndecodablePayloadException refused = assertThrows(UndecodablePayloadException.class,
                () -> codecs.decoder(String.class).decode(bomb, properties("text/plain", "gzip")));
        assertTrue(refused.getMessage().contains("inflates beyond 1024 bytes"), refused.getMessage());
        UndecodablePayloadException corrupt = assertThrows(UndecodablePayloadException.class,
                () -> codecs.decoder(String.class).decode(bytes("not gzip"), properties("text/plain", "gzip")));
        assertTrue(corrupt.getMessage().contains("not valid gzip"), corrupt.getMessage());
        assertEquals(16, ContentEncodings.head(bomb, "gzip", 16).length, "a preview inflates its first bytes only");
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static AMQP.BasicProperties properties(String contentType, String contentEncoding) {
        return new AMQP.BasicProperties.Builder().contentType(contentType).contentEncoding(contentEncoding).build();
    }
}
