package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;

/**
 * A channel in confirm mode on the publishing connection, opened at its first publish and again after it closed, and
 * the publishes in flight on it ({@link ConfirmTracker}): a confirm completes them, a nack or a {@code basic.return}
 * fails the one it belongs to, a close fails them all. RabbitMQ closes a channel for a publish it refuses (a
 * {@code user-id} that is not the publisher's, a missing exchange): everything in flight on it fails with it, so what
 * must not fail together gets a channel each (the application's confirmed sends, the runtime's held copies).
 * <p>
 * The broker's listener threads take only the tracker's monitor, never this channel's (held across calls into the
 * broker): a listener waiting for a publisher waiting for the broker would deadlock.
 */
final class ConfirmChannel {

    /** One publish in flight: its number on the channel, and what completes when the broker answered for it. */
    record Tracked(long sequenceNumber, CompletableFuture<Void> confirmed) {
    }

    private final Supplier<BrokerConnection> connection;
    private final ConfirmTracker<CompletableFuture<Void>> unconfirmed = new ConfirmTracker<>();
    private volatile BrokerChannel channel;

    ConfirmChannel(Supplier<BrokerConnection> connection) {
        this.connection = connection;
    }

    /** Open now, so a publish would not wait for the broker to open it. */
    boolean isReady() {
        BrokerChannel current = channel;
        return current != null && current.isOpen();
    }

    /**
     * Publishes, opening the channel first if needed (which waits for the broker). Throws when the client could not
     * write it; what the broker says completes {@link Tracked#confirmed}.
     */
    synchronized Tracked publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body) throws IOException {
        BrokerChannel open = open();
        long sequenceNumber = open.nextPublishSeqNo();
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        unconfirmed.published(sequenceNumber, properties.getMessageId(), exchange, routingKey, confirmed, 0);
        try {
            open.publish(exchange, routingKey, mandatory, properties, body);
        } catch (IOException | RuntimeException e) {
            unconfirmed.forget(sequenceNumber, confirmed);
            throw e;
        }
        return new Tracked(sequenceNumber, confirmed);
    }

    /** No later confirm or return may complete it (its caller gave up waiting). */
    void forget(Tracked tracked) {
        unconfirmed.forget(tracked.sequenceNumber(), tracked.confirmed());
    }

    private BrokerChannel open() throws IOException {
        BrokerChannel current = channel;
        if (current != null && current.isOpen()) {
            return current;
        }
        failAllPending("the confirm channel closed before the broker confirmed");
        current = connection.get().createChannel();
        current.confirmSelect(new PublishListener() {
            @Override
            public void acked(long sequenceNumber, boolean multiple) {
                settle(sequenceNumber, multiple, null);
            }

            @Override
            public void nacked(long sequenceNumber, boolean multiple) {
                settle(sequenceNumber, multiple, "the broker nacked the message");
            }

            @Override
            public void returned(int replyCode, String replyText, String exchange, String routingKey,
                    AMQP.BasicProperties properties, byte[] body) {
                CompletableFuture<Void> result = unconfirmed.returned(properties.getMessageId(), exchange, routingKey);
                if (result != null) {
                    result.completeExceptionally(new IllegalStateException(failure(exchange, routingKey,
                            "unroutable (" + replyText + "): no queue is bound")));
                }
            }

            @Override
            public void closed(String reason) {
                // No confirm comes after this; after a recovery the sequence starts again at 1.
                failAllPending("the channel closed before the broker confirmed: " + reason);
            }
        });
        channel = current;
        return current;
    }

    /** A confirm or a nack; completing runs the callers' continuations, outside the tracker's monitor. */
    private void settle(long sequenceNumber, boolean multiple, String nackReason) {
        for (CompletableFuture<Void> result : unconfirmed.answered(sequenceNumber, multiple)) {
            if (nackReason == null) {
                result.complete(null);
            } else {
                result.completeExceptionally(new IllegalStateException(nackReason));
            }
        }
    }

    private void failAllPending(String reason) {
        for (CompletableFuture<Void> result : unconfirmed.closed()) {
            result.completeExceptionally(new IllegalStateException(reason));
        }
    }

    static String failure(String exchange, String routingKey, String why) {
        return "Publishing to exchange '" + exchange + "' with routing key '" + routingKey + "' failed: " + why;
    }
}
