package org.acme.subscriber.test.codecs;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Arrays;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;

/**
 * An application's codec: rows in a binary format of the test's own ({@code ROW1}, the id, the name in UTF-8), under
 * a content type of its own. It claims only that content type, so a row sent as JSON is still read by the built-in
 * JSON codec; it writes every {@link Row} sent.
 */
@ApplicationScoped
public class RowCodec implements PayloadCodec {

    public static final String CONTENT_TYPE = "application/x-acme-row";
    private static final byte[] MAGIC = { 'R', 'O', 'W', '1' };

    @Override
    public boolean decodes(String contentType, Type type) {
        return CONTENT_TYPE.equals(contentType) && type == Row.class;
    }

    @Override
    public Object decode(byte[] body, String contentType, Type type) throws IOException {
        if (body.length < MAGIC.length || !Arrays.equals(MAGIC, Arrays.copyOf(body, MAGIC.length))) {
            throw new IllegalArgumentException("not a row: no ROW1 mark");
        }
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(body, MAGIC.length,
                body.length - MAGIC.length));
        return new Row(in.readInt(), in.readUTF());
    }

    @Override
    public boolean encodes(Class<?> type) {
        return type == Row.class;
    }

    @Override
    public String contentType(Class<?> type) {
        return CONTENT_TYPE;
    }

    @Override
    public byte[] encode(Object payload) throws IOException {
        Row row = (Row) payload;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(MAGIC);
        out.writeInt(row.id());
        out.writeUTF(row.name());
        return bytes.toByteArray();
    }
}
