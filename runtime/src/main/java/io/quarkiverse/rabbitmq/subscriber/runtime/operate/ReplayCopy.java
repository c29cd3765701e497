package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.LinkedHashMap;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;

/**
 * The properties a replayed dead letter is published back with: its own, but for the headers of its past life. The
 * retry count goes, so that the next delivery counts as the first and the message gets all its attempts again; so do
 * the last failure's headers and RabbitMQ's death headers (a new death writes its own). The original route and queue
 * stay, so a replayed message that dies again can be replayed again; {@link DeadLetters#REPLAYED_HEADER} counts how
 * often it was.
 */
final class ReplayCopy {

    private ReplayCopy() {
    }

    /**
     * @param provenance the user the replay publishes as: the copy goes under it, the publisher's {@code user-id} in its
     *        header ({@link Provenance}); on a letter the runtime did not write, the runtime's headers are a
     *        publisher's and go
     */
    static AMQP.BasicProperties of(AMQP.BasicProperties dead, String retryCountHeader, Provenance provenance) {
        Map<String, Object> headers = dead.getHeaders() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(dead.getHeaders());
        headers.remove(retryCountHeader);
        headers.remove(Delivery.EXCEPTION_TYPE_HEADER);
        headers.remove(Delivery.EXCEPTION_MESSAGE_HEADER);
        CopyProperties.BROKER_HEADERS.forEach(headers::remove);
        CopyProperties.ROUTING_HEADERS.forEach(headers::remove);
        boolean ours = provenance.wrote(dead);
        provenance.dropForged(headers, ours);
        headers.put(DeadLetters.REPLAYED_HEADER, replayed(headers.get(DeadLetters.REPLAYED_HEADER)) + 1);
        return provenance.stamp(ours ? provenance.asPublished(dead) : dead, headers);
    }

    /** How often it was replayed before: a number, or digits; anything else counts as never. */
    private static int replayed(Object count) {
        long value = DeadLetterReading.count(count instanceof Number ? count
                : count == null ? null
                        : count.toString());
        return (int) Math.min(Integer.MAX_VALUE - 1, value);
    }
}
