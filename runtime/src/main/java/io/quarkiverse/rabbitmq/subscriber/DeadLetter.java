package io.quarkiverse.rabbitmq.subscriber;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message waiting in a dead-letter queue, as {@link DeadLetters#peek} shows it.
 *
 * @param messageId the message id property, or {@code null}
 * @param sourceQueue the queue the message was dead-lettered from, where {@link DeadLetters#replay} sends it back:
 *        the runtime's {@link Delivery#ORIGINAL_QUEUE_HEADER}, else the queue of the latest {@code x-death} entry
 *        RabbitMQ wrote (a quorum queue's dead letters), else {@code x-first-death-queue}; {@code null} when none says
 * @param headers the message headers as plain Java values ({@code String}, not amqp-client's {@code LongString});
 *        never {@code null}
 * @param exceptionType the class of the handler's last failure, from {@link Delivery#EXCEPTION_TYPE_HEADER}, or
 *        {@code null}
 * @param exceptionMessage its message, from {@link Delivery#EXCEPTION_MESSAGE_HEADER}, or {@code null}
 * @param reason why it was parked or dead-lettered: the {@link DeadLetters#PARKED_REASON_HEADER} header, else the
 *        {@code x-dead-letter-reason} header, else the reason of the latest
 *        {@code x-death} entry ({@code rejected}, {@code expired}, {@code maxlen}, {@code delivery_limit}), else
 *        {@code null}
 * @param attempts the deliveries counted in the retry-count header
 *        ({@code quarkus.rabbitmq-subscriber.retry-count-header}); for a quorum queue's dead letter, which RabbitMQ
 *        moved at the queue's delivery limit ({@code x-death} reason {@code delivery_limit}) and which carries no count,
 *        the cap of the subscription consuming that queue; {@code 0} when nothing says
 * @param bodyPreview the first {@value #PREVIEW_BYTES} bytes of the body (less, so as not to cut a character),
 *        decoded as UTF-8; a compressed body's ({@code content-encoding} gzip or deflate) once inflated. A body whose
 *        content type is not text, JSON or XML (Protobuf, a binary format of the application's) that its
 *        subscription's codec reads: the first {@value #PREVIEW_BYTES} bytes of the decoded value's text instead (a
 *        Protobuf message's text format)
 * @param bodySize the size of the whole body, in bytes, as it waits in the queue (compressed, if it is)
 */
public record DeadLetter(String messageId, String sourceQueue, Map<String, Object> headers, String exceptionType,
        String exceptionMessage, String reason, int attempts, String bodyPreview, int bodySize) {

    /** How much of the body {@link #bodyPreview()} shows at most, in bytes. */
    public static final int PREVIEW_BYTES = 256;

    public DeadLetter {
        // Header values may be null (an AMQP void), which Map.copyOf refuses.
        headers = headers == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** One header, or {@code null}. */
    public Object header(String name) {
        return headers.get(name);
    }
}
