package io.quarkiverse.rabbitmq.subscriber;

import java.lang.reflect.Type;

/**
 * Turns message bodies into payloads and payloads into bodies, for a content type and a Java type. Declare one as a
 * bean ({@code @ApplicationScoped}) and it is asked before the built-in codecs (JSON through the application's
 * {@code ObjectMapper}, text, bytes, Protobuf) wherever the extension decodes (handlers, batches, replies to
 * {@code RabbitPublisher.request}) or encodes ({@code RabbitPublisher}, {@code Outputs}, replies, the outbox, the
 * in-process broker's {@code publish}). Several codec beans are asked in the order of their {@code @Priority}, highest
 * first.
 * <p>
 * A body's {@code content-encoding} (gzip, deflate) is undone before {@link #decode} and done after {@link #encode}: a
 * codec sees plain bytes. A codec must be thread-safe: it is called on event loops and worker threads at once.
 */
public interface PayloadCodec {

    /** Protobuf's content type, which the built-in Protobuf codec writes and reads. */
    String PROTOBUF_CONTENT_TYPE = "application/x-protobuf";

    /**
     * The header the built-in Protobuf codec writes the message type's full name in ({@code acme.Order}, the
     * descriptor's name), and checks on reading: a body of another type is undecodable, named in the error.
     */
    String PROTOBUF_TYPE_HEADER = "x-protobuf-type";

    /**
     * Whether this codec reads bodies of this content type into this type.
     *
     * @param contentType the message's content type, lower case and without parameters ({@code text/csv} for
     *        {@code text/CSV; charset=utf-8}); {@code null} when the message has none
     * @param type the handler's payload type (a {@code Class}, or a {@code ParameterizedType} for a generic one); for a
     *        batch handler's {@code List<T>}, {@code T}
     */
    boolean decodes(String contentType, Type type);

    /**
     * Reads a body. Whatever it throws makes the message undecodable: never retried, dead-lettered where the
     * subscription has a dead-letter queue, dropped with an ERROR otherwise, as a body that is not JSON is.
     *
     * @param body the body, its content encoding undone
     * @param contentType as {@link #decodes} got it
     * @param type as {@link #decodes} got it
     * @return the payload; never {@code null}
     */
    Object decode(byte[] body, String contentType, Type type) throws Exception;

    /** Whether this codec writes payloads of this class. */
    boolean encodes(Class<?> type);

    /** The content type the messages it writes for payloads of this class carry. */
    String contentType(Class<?> type);

    /** Writes a payload; what it throws fails the send (a {@code RabbitPublisher} call, a handler's output). */
    byte[] encode(Object payload) throws Exception;
}
