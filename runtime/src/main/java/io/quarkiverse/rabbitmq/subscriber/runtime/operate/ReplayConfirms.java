package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.concurrent.CompletableFuture;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;

/**
 * The confirm of the one copy a replay has in flight at a time: completes with {@code null} once RabbitMQ confirmed
 * it, with why not when it nacked or returned it or the channel closed. Called on the broker's reader thread, so it
 * takes nothing but its own monitor.
 */
final class ReplayConfirms implements PublishListener {

    private long expected = -1;
    private CompletableFuture<String> outcome = new CompletableFuture<>();
    /** Why RabbitMQ returned the copy in flight: a return comes before its confirm. */
    private String returned;

    /** The outcome of the publish about to get this sequence number. */
    synchronized CompletableFuture<String> expect(long sequenceNumber) {
        expected = sequenceNumber;
        returned = null;
        outcome = new CompletableFuture<>();
        return outcome;
    }

    @Override
    public synchronized void acked(long sequenceNumber, boolean multiple) {
        if (covers(sequenceNumber, multiple)) {
            outcome.complete(returned);
        }
    }

    @Override
    public synchronized void nacked(long sequenceNumber, boolean multiple) {
        if (covers(sequenceNumber, multiple)) {
            outcome.complete("RabbitMQ nacked the copy");
        }
    }

    @Override
    public synchronized void returned(int replyCode, String replyText, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        returned = "RabbitMQ returned the copy (" + replyText + "): no queue '" + routingKey + "' exists";
    }

    @Override
    public synchronized void closed(String reason) {
        outcome.complete("the channel closed (" + reason + ")");
    }

    private boolean covers(long sequenceNumber, boolean multiple) {
        return sequenceNumber == expected || multiple && sequenceNumber > expected;
    }
}
