package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/**
 * The properties of a copy or dead letter the runtime publishes: every header and property of the original, but the
 * headers that describe the original's own life in the broker (its deaths, a quorum queue's delivery count) and those
 * that would send it elsewhere too ({@code CC}, {@code BCC}), with the retry count set, the original's exchange, routing
 * key and queue ({@link OriginalRoute}) and, after a failure, the failure's type and message. It goes under the
 * runtime's own {@code user-id} ({@link Provenance}), which RabbitMQ accepts from the runtime where the publisher's
 * would be refused. A dead or parked letter goes without the original's expiration, as RabbitMQ's own dead-lettering
 * removes it: the queue that keeps a letter must not lose it when a TTL the publisher meant for the work runs out.
 */
public final class CopyProperties {

    /** Headers RabbitMQ writes about a message's deaths and deliveries: they belong to the original only. */
    public static final List<String> BROKER_HEADERS = List.of("x-death", "x-first-death-reason", "x-first-death-queue",
            "x-first-death-exchange", "x-last-death-reason", "x-last-death-queue", "x-last-death-exchange",
            "x-delivery-count");

    /**
     * Sender-selected distribution: RabbitMQ routes a message to the queues these name as well as to its own. A copy
     * goes to its one queue; a publisher's {@code CC} must not have the runtime write into other queues.
     */
    public static final List<String> ROUTING_HEADERS = List.of("CC", "BCC");

    private CopyProperties() {
    }

    /**
     * A copy back to the work (or its waiting place): see
     * {@link #of(Unsettled, Provenance, String, int, FailureInfo, boolean)}.
     */
    public static AMQP.BasicProperties of(Unsettled original, Provenance provenance, String retryCountHeader,
            int retryCount, FailureInfo failure) {
        return of(original, provenance, retryCountHeader, retryCount, failure, false);
    }

    /**
     * The copy's header table is a fresh, mutable map: observers may add their context to it. A {@code letter} (dead or
     * parked) goes without the expiration.
     */
    public static AMQP.BasicProperties of(Unsettled original, Provenance provenance, String retryCountHeader,
            int retryCount, FailureInfo failure, boolean letter) {
        AMQP.BasicProperties properties = original.wireProperties();
        Map<String, Object> headers = ownHeaders(original, provenance);
        BROKER_HEADERS.forEach(headers::remove);
        OriginalRoute.carry(headers, original.exchange(), original.routingKey(), original.queue());
        headers.put(retryCountHeader, retryCount);
        if (failure != null) {
            headers.put(FailureInfo.TYPE_HEADER, failure.type());
            headers.put(FailureInfo.MESSAGE_HEADER, failure.message());
        }
        AMQP.BasicProperties copy = provenance.stamp(properties, headers);
        return letter ? withoutExpiration(copy) : copy;
    }

    /**
     * The message as received, for a dead letter no counted copy can be made of: its own headers, but what only the
     * runtime may write (on a message it did not write) and what would route it elsewhere too, under the runtime's
     * {@code user-id}, without the expiration (it goes to a dead-letter or parking queue).
     */
    public static AMQP.BasicProperties asReceived(Unsettled original, Provenance provenance) {
        return withoutExpiration(provenance.stamp(original.wireProperties(), ownHeaders(original, provenance)));
    }

    /**
     * {@link #asReceived} without the runtime's mark, for a message that only just fits a frame: nothing added, its own
     * {@code user-id} gone (RabbitMQ could refuse it from the runtime's user), so never larger than received but for
     * headers a publisher forged. Its runtime headers are then not honoured, as on any message the runtime did not mark.
     */
    public static AMQP.BasicProperties asReceivedUnmarked(Unsettled original, Provenance provenance) {
        return original.wireProperties().builder().headers(ownHeaders(original, provenance)).userId(null).expiration(null)
                .build();
    }

    private static AMQP.BasicProperties withoutExpiration(AMQP.BasicProperties properties) {
        return properties.getExpiration() == null ? properties : properties.builder().expiration(null).build();
    }

    private static Map<String, Object> ownHeaders(Unsettled original, Provenance provenance) {
        Map<String, Object> received = original.wireProperties().getHeaders();
        Map<String, Object> headers = received == null ? new LinkedHashMap<>() : new LinkedHashMap<>(received);
        ROUTING_HEADERS.forEach(headers::remove);
        provenance.dropForged(headers, original.writtenByRuntime());
        return headers;
    }
}
