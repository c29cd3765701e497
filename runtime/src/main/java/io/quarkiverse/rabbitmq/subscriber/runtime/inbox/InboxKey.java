package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;

/**
 * What identifies a message in the inbox ({@code quarkus.rabbitmq-subscriber.inbox.key}): its AMQP message-id, or a
 * header's value. A key longer than the column holds is kept as {@code sha256:<hex>} of it.
 */
final class InboxKey {

    /** The inbox table's key column holds this many characters. */
    static final int LONGEST = 255;
    private static final String HEADER = "header:";

    /** The header read, or null for the message-id. */
    private final String header;

    private InboxKey(String header) {
        this.header = header;
    }

    /** @throws IllegalStateException naming the setting, for a value that is neither form */
    static InboxKey parse(String configured) {
        String value = configured.trim();
        if (value.equals("message-id")) {
            return new InboxKey(null);
        }
        if (value.startsWith(HEADER) && !value.substring(HEADER.length()).isBlank()) {
            return new InboxKey(value.substring(HEADER.length()).trim());
        }
        throw new IllegalStateException("quarkus.rabbitmq-subscriber.inbox.key=" + configured + " is neither "
                + "message-id nor header:<name>");
    }

    /** The delivery's key, or null when it has none. */
    String of(InboundDelivery delivery) {
        Object value = header == null ? delivery.messageId() : delivery.header(header);
        if (value == null) {
            return null;
        }
        String key = value.toString();
        if (key.isEmpty()) {
            return null;
        }
        return key.length() <= LONGEST ? key : "sha256:" + sha256(key);
    }

    /** "its message-id" or "its header 'x'", for messages. */
    String describe() {
        return header == null ? "its message-id" : "its header '" + header + "'";
    }

    private static String sha256(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
