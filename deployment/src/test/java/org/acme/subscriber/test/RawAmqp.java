package org.acme.subscriber.test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * A hand-made AMQP 0-9-1 client, for what amqp-client refuses to send: a message whose header table has an entry of a
 * field type that does not exist ('Z').
 */
public final class RawAmqp {

    private final DataInputStream in;
    private final DataOutputStream out;

    private RawAmqp(Socket socket) throws IOException {
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Publishes the message to the queue of the broker under test (127.0.0.1, WireBroker.PORT) as guest; returns what the
     * broker answered within 5 s: its
     * {@code connection.close} reply ("code text"), or null when it said nothing.
     */
    public static String publishWithUndecodableHeaders(String queue) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", WireBroker.PORT)) {
            socket.setSoTimeout(5000);
            RawAmqp amqp = new RawAmqp(socket);
            amqp.out.write("AMQP".getBytes(StandardCharsets.US_ASCII));
            amqp.out.write(new byte[] { 0, 0, 9, 1 });
            amqp.out.flush();
            amqp.expect(10, 10); // connection.start
            amqp.method(0, 10, 11, d -> {
                d.writeInt(0); // no client properties
                shortstr(d, "PLAIN");
                longstr(d, "\0guest\0guest");
                shortstr(d, "en_US");
            });
            amqp.expect(10, 30); // connection.tune
            amqp.method(0, 10, 31, d -> {
                d.writeShort(1);
                d.writeInt(131072);
                d.writeShort(0);
            });
            amqp.method(0, 10, 40, d -> {
                shortstr(d, "/");
                shortstr(d, "");
                d.writeByte(0);
            });
            amqp.expect(10, 41); // connection.open-ok
            amqp.method(1, 20, 10, d -> shortstr(d, ""));
            amqp.expect(20, 11); // channel.open-ok
            amqp.method(1, 60, 40, d -> {
                d.writeShort(0);
                shortstr(d, "");
                shortstr(d, queue);
                d.writeByte(0);
            });
            byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
            ByteArrayOutputStream table = new ByteArrayOutputStream();
            DataOutputStream entries = new DataOutputStream(table);
            shortstr(entries, "bad");
            entries.writeByte('Z');
            entries.writeInt(7);
            ByteArrayOutputStream header = new ByteArrayOutputStream();
            DataOutputStream h = new DataOutputStream(header);
            h.writeShort(60);
            h.writeShort(0);
            h.writeLong(body.length);
            h.writeShort(0x2000); // only the headers property
            h.writeInt(table.size());
            h.write(table.toByteArray());
            amqp.frame(2, 1, header.toByteArray());
            amqp.frame(3, 1, body);
            try {
                return amqp.readClose();
            } catch (java.net.SocketTimeoutException e) {
                return null;
            }
        }
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private void method(int channel, int classId, int methodId, Writer arguments) throws IOException {
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(payload);
        d.writeShort(classId);
        d.writeShort(methodId);
        arguments.write(d);
        frame(1, channel, payload.toByteArray());
    }

    private void frame(int type, int channel, byte[] payload) throws IOException {
        out.writeByte(type);
        out.writeShort(channel);
        out.writeInt(payload.length);
        out.write(payload);
        out.writeByte(0xCE);
        out.flush();
    }

    private DataInputStream readMethodFrame(int[] ids) throws IOException {
        int type = in.readUnsignedByte();
        in.readUnsignedShort();
        byte[] payload = new byte[in.readInt()];
        in.readFully(payload);
        in.readUnsignedByte();
        DataInputStream d = new DataInputStream(new ByteArrayInputStream(payload));
        if (type != 1) {
            throw new IOException("expected a method frame, got frame type " + type);
        }
        ids[0] = d.readUnsignedShort();
        ids[1] = d.readUnsignedShort();
        return d;
    }

    private void expect(int classId, int methodId) throws IOException {
        int[] ids = new int[2];
        readMethodFrame(ids);
        if (ids[0] != classId || ids[1] != methodId) {
            throw new IOException("expected method " + classId + "." + methodId + ", got " + ids[0] + "." + ids[1]);
        }
    }

    private String readClose() throws IOException {
        int[] ids = new int[2];
        DataInputStream d = readMethodFrame(ids);
        if (ids[0] != 10 || ids[1] != 50) {
            return "method " + ids[0] + "." + ids[1];
        }
        int code = d.readUnsignedShort();
        byte[] text = new byte[d.readUnsignedByte()];
        d.readFully(text);
        return code + " " + new String(text, StandardCharsets.UTF_8);
    }

    private static void shortstr(DataOutputStream d, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        d.writeByte(bytes.length);
        d.write(bytes);
    }

    private static void longstr(DataOutputStream d, String value) throws IOException {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        d.writeInt(bytes.length);
        d.write(bytes);
    }
}
