package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The inverse of {@link PayloadDecoder}: a payload becomes a body and the content type that says how to read it. The
 * first application codec that writes the payload's class does (with a content type asked for, the first whose content
 * type is that one); else the built-ins: {@code byte[]} and {@code Buffer} as they are
 * ({@code application/octet-stream}), a {@code String} as UTF-8 ({@code text/plain}), a Protobuf message in its binary
 * form ({@code application/x-protobuf}, its type named in a header), anything else as JSON ({@code application/json}).
 * A content encoding ({@code gzip}, {@code deflate}) is done last.
 */
public final class PayloadEncoder {

    /**
     * A payload as it is sent.
     *
     * @param contentType the content type asked for, else the codec's
     * @param headers headers the codec adds (the Protobuf type's name); empty for most
     */
    public record Encoded(byte[] body, String contentType, Map<String, Object> headers) {

        /** The message's own headers after the codec's, which they override; the own map itself when it adds none. */
        public Map<String, Object> headersWith(Map<String, Object> own) {
            if (headers.isEmpty()) {
                return own;
            }
            Map<String, Object> all = new java.util.LinkedHashMap<>(headers);
            all.putAll(own);
            return all;
        }
    }

    private final ObjectMapper mapper;
    private final List<PayloadCodec> codecs;

    /** With the built-in codecs only. */
    public PayloadEncoder(ObjectMapper mapper) {
        this(mapper, List.of());
    }

    /** @param codecs the application's codecs, asked first, in this order */
    public PayloadEncoder(ObjectMapper mapper, List<PayloadCodec> codecs) {
        this.mapper = mapper;
        this.codecs = codecs;
    }

    /**
     * @param contentType the content type the sender set, or null for the codec's
     * @param contentEncoding the content encoding the sender set, or null
     * @throws IllegalArgumentException when the payload cannot be encoded, naming its class and the codec
     */
    public Encoded encode(Object payload, String contentType, String contentEncoding) {
        Encoded plain = plain(payload, ContentTypes.media(contentType));
        return new Encoded(ContentEncodings.encode(plain.body(), contentEncoding),
                contentType != null ? contentType : plain.contentType(), plain.headers());
    }

    private Encoded plain(Object payload, String asked) {
        Class<?> type = payload.getClass();
        for (int i = 0; i < codecs.size(); i++) {
            PayloadCodec codec = codecs.get(i);
            if (codec.encodes(type)) {
                String written = codec.contentType(type);
                if (asked == null || asked.equals(ContentTypes.media(written))) {
                    return new Encoded(byCodec(codec, payload), written, Map.of());
                }
            }
        }
        if (payload instanceof byte[] bytes) {
            return new Encoded(bytes, ContentTypes.OCTET_STREAM, Map.of());
        }
        if (payload instanceof String text) {
            return new Encoded(text.getBytes(StandardCharsets.UTF_8), ContentTypes.TEXT, Map.of());
        }
        if (payload instanceof Buffer buffer) {
            return new Encoded(buffer.getBytes(), ContentTypes.OCTET_STREAM, Map.of());
        }
        if (payload instanceof JsonObject json) {
            return new Encoded(json.toBuffer().getBytes(), ContentTypes.JSON, Map.of());
        }
        if (payload instanceof JsonArray json) {
            return new Encoded(json.toBuffer().getBytes(), ContentTypes.JSON, Map.of());
        }
        if (ProtobufTypes.isMessage(payload.getClass())) {
            return new Encoded(Protobuf.encode(payload), PayloadCodec.PROTOBUF_CONTENT_TYPE,
                    Map.of(PayloadCodec.PROTOBUF_TYPE_HEADER, Protobuf.typeName(payload)));
        }
        try {
            return new Encoded(mapper.writeValueAsBytes(payload), ContentTypes.JSON, Map.of());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Cannot encode a " + type.getName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    private static byte[] byCodec(PayloadCodec codec, Object payload) {
        byte[] body;
        try {
            body = codec.encode(payload);
        } catch (Exception e) {
            throw new IllegalArgumentException("The codec " + io.quarkus.arc.ClientProxy.unwrap(codec).getClass().getName()
                    + " could not encode a " + payload.getClass().getName() + ": " + e, e);
        }
        if (body == null) {
            throw new IllegalArgumentException("The codec " + io.quarkus.arc.ClientProxy.unwrap(codec).getClass().getName()
                    + " encoded a " + payload.getClass().getName() + " into null");
        }
        return body;
    }
}
