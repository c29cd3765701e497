package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.concurrent.CompletableFuture;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.ConfirmTracker;

/**
 * What the broker says of the copies a replay publishes, in the words of its failure messages: each copy's outcome
 * completes with {@code null} once RabbitMQ confirmed it, with why not when it nacked or returned it or the channel
 * closed. The bookkeeping is {@link ConfirmTracker}'s, as for every other confirmed publish. Called on the broker's
 * reader thread; completing runs outside the tracker's monitor.
 */
final class ReplayConfirms implements PublishListener {

    private final ConfirmTracker<CompletableFuture<String>> unconfirmed = new ConfirmTracker<>();

    /** The outcome of a copy about to be published to {@code queue} under this sequence number. */
    CompletableFuture<String> expect(long sequenceNumber, AMQP.BasicProperties properties, String queue) {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        unconfirmed.published(sequenceNumber, properties.getMessageId(), "", queue, outcome, 0);
        return outcome;
    }

    /** The copy was never written, or its answer no longer matters. */
    void forget(long sequenceNumber, CompletableFuture<String> outcome) {
        unconfirmed.forget(sequenceNumber, outcome);
    }

    @Override
    public void acked(long sequenceNumber, boolean multiple) {
        unconfirmed.answered(sequenceNumber, multiple).forEach(outcome -> outcome.complete(null));
    }

    @Override
    public void nacked(long sequenceNumber, boolean multiple) {
        unconfirmed.answered(sequenceNumber, multiple).forEach(outcome -> outcome.complete("RabbitMQ nacked the copy"));
    }

    @Override
    public void returned(int replyCode, String replyText, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        // A return comes before the confirm of the same copy, which then finds nothing left to complete.
        CompletableFuture<String> outcome = unconfirmed.returned(properties.getMessageId(), exchange, routingKey);
        if (outcome != null) {
            outcome.complete("RabbitMQ returned the copy (" + replyText + "): no queue '" + routingKey + "' exists");
        }
    }

    @Override
    public void closed(String reason) {
        unconfirmed.closed().forEach(outcome -> outcome.complete("the channel closed (" + reason + ")"));
    }
}
