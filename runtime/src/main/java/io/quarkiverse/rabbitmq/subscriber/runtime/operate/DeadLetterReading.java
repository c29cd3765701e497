package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.OriginalRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;

/**
 * Reads a message taken from a dead-letter queue into a {@link DeadLetter}: where it came from, why, after how many
 * deliveries, and the start of its body.
 */
final class DeadLetterReading {

    /** Written by some services that dead-letter messages themselves; RabbitMQ writes {@code x-death} instead. */
    static final String REASON_HEADER = io.quarkiverse.rabbitmq.subscriber.Outcome.DEAD_LETTER_REASON_HEADER;

    private DeadLetterReading() {
    }

    /** @param provenance tells whether the runtime wrote the letter, so whether its {@code x-original-queue} counts */
    static DeadLetter read(AMQP.BasicProperties properties, byte[] body, String retryCountHeader,
            Provenance provenance) {
        return read(properties, body, retryCountHeader, provenance, ignored -> 0);
    }

    /**
     * @param capOf the cap ({@code maxAttempts}) of the subscription consuming a queue, 0 when none: a quorum queue's
     *        dead letter carries no count, only {@code x-death} reason {@code delivery_limit}, and the cap is then how
     *        many deliveries it had
     */
    static DeadLetter read(AMQP.BasicProperties properties, byte[] body, String retryCountHeader,
            Provenance provenance, java.util.function.ToIntFunction<String> capOf) {
        Map<String, Object> headers = PlainHeaders.of(properties.getHeaders());
        int count = count(headers.get(retryCountHeader));
        if (count == 0 && "delivery_limit".equals(text(latestDeath(headers).get("reason")))) {
            String queue = text(latestDeath(headers).get("queue"));
            count = queue == null ? 0 : capOf.applyAsInt(queue);
        }
        return new DeadLetter(properties.getMessageId(), sourceQueue(headers, provenance.wrote(properties)), headers,
                text(headers.get(Delivery.EXCEPTION_TYPE_HEADER)), text(headers.get(Delivery.EXCEPTION_MESSAGE_HEADER)),
                reason(headers), count,
                preview(io.quarkiverse.rabbitmq.subscriber.runtime.codec.ContentEncodings.head(body,
                        properties.getContentEncoding(), DeadLetter.PREVIEW_BYTES + 4)),
                body.length);
    }

    /**
     * The queue a dead letter came from: the runtime's own header first (its dead letters carry no {@code x-death}, and
     * a retry that waited in a waiting queue has one naming the waiting queue); then the latest death RabbitMQ recorded
     * (a quorum queue's dead letters; {@code x-death} lists the latest first); then {@code x-first-death-queue}.
     * {@code null} when none says. The runtime's header counts only on a letter the runtime wrote
     * ({@link Provenance}): any publisher can write it.
     */
    static String sourceQueue(Map<String, Object> headers, boolean writtenByRuntime) {
        String queue = writtenByRuntime ? OriginalRoute.queue(headers) : null;
        if (queue == null) {
            queue = text(latestDeath(headers).get("queue"));
        }
        if (queue == null) {
            queue = text(headers.get("x-first-death-queue"));
        }
        return queue == null || queue.isEmpty() ? null : queue;
    }

    static String reason(Map<String, Object> headers) {
        String parked = text(headers.get(io.quarkiverse.rabbitmq.subscriber.DeadLetters.PARKED_REASON_HEADER));
        if (parked != null) {
            return parked;
        }
        String reason = text(headers.get(REASON_HEADER));
        return reason != null ? reason : text(latestDeath(headers).get("reason"));
    }

    /** The body's first bytes as text, cut before a character the limit would split. */
    static String preview(byte[] body) {
        int end = Math.min(body.length, DeadLetter.PREVIEW_BYTES);
        if (end < body.length) {
            // A UTF-8 character has at most 3 continuation bytes (10xxxxxx) after its first.
            int start = end;
            while (start > end - 3 && start > 0 && (body[start] & 0xC0) == 0x80) {
                start--;
            }
            if ((body[start] & 0xC0) == 0x80) {
                // Not UTF-8 anyway: the decoder replaces what it cannot read.
                start = end;
            }
            end = start;
        }
        return new String(body, 0, end, StandardCharsets.UTF_8);
    }

    /** A count header (the retry count, the replays): a number, or digits (other services write it as text); else 0. */
    static int count(Object count) {
        if (count instanceof Number number) {
            return (int) Math.max(0, Math.min(Integer.MAX_VALUE, number.longValue()));
        }
        if (count instanceof String text) {
            try {
                return (int) Math.max(0, Math.min(Integer.MAX_VALUE, Long.parseLong(text.trim())));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> latestDeath(Map<String, Object> headers) {
        if (headers.get("x-death") instanceof List<?> deaths && !deaths.isEmpty()
                && deaths.get(0) instanceof Map<?, ?> latest) {
            return (Map<String, Object>) latest;
        }
        return Map.of();
    }

    private static String text(Object value) {
        return value instanceof String text ? text : null;
    }
}
