package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmedChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;

/**
 * A channel in confirm mode on the publishing connection, opened at its first publish and again after it closed; its
 * publishes in flight are followed by the confirm engine ({@link ConfirmedChannel}): a confirm completes them, a nack
 * or a {@code basic.return} fails the one it belongs to, a close fails them all. RabbitMQ closes a channel for a
 * publish it refuses (a {@code user-id} that is not the publisher's, a missing exchange): everything in flight on it
 * fails with it, so what must not fail together gets a channel each (the application's confirmed sends, the runtime's
 * held copies).
 * <p>
 * The broker's listener threads take only the engine's bookkeeping monitor, never this channel's (held across calls
 * into the broker): a listener waiting for a publisher waiting for the broker would deadlock.
 */
final class ConfirmChannel {

    /** One publish in flight: its number on the channel, and what completes when the broker answered for it. */
    record Tracked(long sequenceNumber, CompletableFuture<Void> confirmed, Consumer<PublishOutcome> answer) {
    }

    private final Supplier<BrokerConnection> connection;
    private volatile BrokerChannel channel;
    /** The engine of the channel open now: a new one with each channel, whose numbers start at 1 again. */
    private volatile ConfirmedChannel confirms;

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
        CompletableFuture<Void> confirmed = new CompletableFuture<>();
        Consumer<PublishOutcome> answer = outcome -> complete(confirmed, outcome, exchange, routingKey);
        long sequenceNumber = confirms.publish(open, exchange, routingKey, mandatory, properties, body, answer, 0);
        return new Tracked(sequenceNumber, confirmed, answer);
    }

    /** No later confirm or return may complete it (its caller gave up waiting). */
    void forget(Tracked tracked) {
        ConfirmedChannel current = confirms;
        if (current != null) {
            current.forget(tracked.sequenceNumber(), tracked.answer());
        }
    }

    private BrokerChannel open() throws IOException {
        BrokerChannel current = channel;
        if (current != null && current.isOpen()) {
            return current;
        }
        ConfirmedChannel closed = confirms;
        if (closed != null) {
            // Its close was told already, unless the client never said so: then nothing else would answer them.
            closed.closed("the confirm channel was found closed");
        }
        current = connection.get().createChannel();
        // Told on the reader thread: completing a future runs the callers' continuations, outside the engine's monitor.
        ConfirmedChannel engine = new ConfirmedChannel(Runnable::run, ConfirmedChannel.Untracked.IGNORED);
        current.confirmSelect(engine);
        confirms = engine;
        channel = current;
        return current;
    }

    /** What the broker said completes the publish's future. */
    private static void complete(CompletableFuture<Void> confirmed, PublishOutcome outcome, String exchange,
            String routingKey) {
        switch (outcome.kind()) {
            case CONFIRMED -> confirmed.complete(null);
            case NACKED -> confirmed.completeExceptionally(new IllegalStateException("the broker nacked the message"));
            case RETURNED -> confirmed.completeExceptionally(new IllegalStateException(failure(exchange, routingKey,
                    "unroutable (" + outcome.reason() + "): no queue is bound")));
            // No confirm comes after a close; after a recovery the sequence starts again at 1.
            case CLOSED -> confirmed.completeExceptionally(new PublishCut(
                    "the channel closed before the broker confirmed: " + outcome.reason(), null));
            case TIMED_OUT -> confirmed.completeExceptionally(new IllegalStateException(
                    "the broker did not confirm in time"));
        }
    }

    static String failure(String exchange, String routingKey, String why) {
        return "Publishing to exchange '" + exchange + "' with routing key '" + routingKey + "' failed: " + why;
    }
}
