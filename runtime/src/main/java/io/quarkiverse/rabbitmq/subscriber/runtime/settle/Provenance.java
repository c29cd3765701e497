package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Delivery;

/**
 * Which messages the runtime wrote itself. Its route headers ({@code x-original-queue}, which a replay sends a dead
 * letter back to; {@code x-original-exchange} and {@code -routing-key}, which a handler is told; {@code x-original-user-id})
 * steer where the runtime writes and what it reports, and any publisher can set them: they are honoured only on a
 * message the runtime wrote, and dropped from any other before it is copied.
 * <p>
 * The mark is RabbitMQ's own check: the runtime publishes its copies, dead letters and replays with {@code user-id} set
 * to the user it logged in as, and RabbitMQ refuses a publish whose {@code user-id} is not its publisher's (unless that
 * user has the {@code impersonator} tag). A publisher logged in as the application's own user can set the mark too, but
 * it holds the application's permissions already: there is nothing to steer. A copy could not keep its publisher's
 * {@code user-id} anyway (RabbitMQ refuses it from the runtime's user: the copy would never leave), so that travels in
 * {@link Delivery#ORIGINAL_USER_ID_HEADER}, and {@link #asPublished} puts it back for the handler.
 * <p>
 * Where the runtime cannot tell which user it is ({@code EXTERNAL} login: the certificate names it), nothing is marked
 * and nothing is honoured: copies go without a {@code user-id} and report the exchange they came through.
 */
public final class Provenance {

    /** Marks nothing, honours nothing. */
    public static final Provenance NONE = new Provenance(null);

    /** The headers only the runtime may write. */
    public static final List<String> RUNTIME_HEADERS = List.of(Delivery.ORIGINAL_EXCHANGE_HEADER,
            Delivery.ORIGINAL_ROUTING_KEY_HEADER, Delivery.ORIGINAL_QUEUE_HEADER, Delivery.ORIGINAL_USER_ID_HEADER);

    private final String user;

    private Provenance(String user) {
        this.user = user;
    }

    /** @param user the user the runtime's connection logged in as; null when it cannot tell */
    public static Provenance of(String user) {
        return user == null || user.isEmpty() ? NONE : new Provenance(user);
    }

    /** The user the runtime publishes as, or null. */
    public String user() {
        return user;
    }

    /** Whether the runtime wrote this message (its {@code user-id} is the runtime's user, which RabbitMQ checked). */
    public boolean wrote(AMQP.BasicProperties properties) {
        return user != null && user.equals(properties.getUserId());
    }

    /**
     * The properties as the handler is told of them: on a message the runtime wrote, the publisher's {@code user-id}
     * (from its header) instead of the runtime's; any other message as it came.
     */
    public AMQP.BasicProperties asPublished(AMQP.BasicProperties wire) {
        if (!wrote(wire)) {
            return wire;
        }
        Object publisher = wire.getHeaders() == null ? null : wire.getHeaders().get(Delivery.ORIGINAL_USER_ID_HEADER);
        return wire.builder().userId(publisher == null ? null : publisher.toString()).build();
    }

    /** Removes the runtime's headers from those of a message it did not write: a publisher's, never honoured. */
    public void dropForged(Map<String, Object> headers, boolean wroteIt) {
        if (!wroteIt) {
            RUNTIME_HEADERS.forEach(headers::remove);
        }
    }

    /**
     * The properties a message the runtime publishes goes with: its {@code user-id} is the runtime's (or none), the
     * publisher's moves to {@link Delivery#ORIGINAL_USER_ID_HEADER}.
     *
     * @param published the message's properties as {@link #asPublished} gives them (the publisher's {@code user-id})
     * @param headers the headers it goes with, a mutable map of the caller's
     */
    public AMQP.BasicProperties stamp(AMQP.BasicProperties published, Map<String, Object> headers) {
        String publisher = published.getUserId();
        if (publisher != null) {
            headers.put(Delivery.ORIGINAL_USER_ID_HEADER, publisher);
        } else {
            headers.remove(Delivery.ORIGINAL_USER_ID_HEADER);
        }
        return published.builder().headers(headers).userId(user).build();
    }
}
