package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmedChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;

/**
 * Moves dead letters back to their queues, one at a time, on a confirm channel of its own: take the head (basic.get,
 * not acknowledged), publish its {@link ReplayCopy} to its source queue ({@code mandatory}), wait for the confirm, and
 * only then ack the dead letter. Whatever goes wrong in between, the dead letter is rejected with requeue (or returned
 * by the channel's close), so it stays in the dead-letter queue: a replay cut midway loses nothing and duplicates at
 * most the message in hand (its copy was published, its confirm never came).
 */
final class DeadLetterReplay {

    private final BrokerConnection connection;
    private final String retryCountHeader;
    private final Duration confirmTimeout;
    /** The queues letters may go back to, per dead-letter queue. */
    private final java.util.function.Function<String, ReplayTargets> targets;

    DeadLetterReplay(BrokerConnection connection, String retryCountHeader, Duration confirmTimeout,
            java.util.function.Function<String, ReplayTargets> targets) {
        this.connection = connection;
        this.retryCountHeader = retryCountHeader;
        this.confirmTimeout = confirmTimeout;
        this.targets = targets;
    }

    int replay(String deadLetterQueue, int max) {
        if (max < 0) {
            throw new IllegalArgumentException("Cannot replay " + max + " messages of queue '" + deadLetterQueue + "'");
        }
        int moved = 0;
        if (max == 0) {
            return moved;
        }
        BrokerChannel channel = null;
        try {
            channel = connection.createChannel();
            // Told on the reader thread: the replay waits for each copy's outcome.
            ConfirmedChannel confirms = new ConfirmedChannel(Runnable::run, ConfirmedChannel.Untracked.IGNORED);
            channel.confirmSelect(confirms);
            // At most what waits now: a message its handler dead-letters again during the replay lands behind the
            // others and must not be taken a second time (a replay would go round until max).
            int limit = Math.min(max, channel.declareQueuePassive(deadLetterQueue).messageCount());
            ReplayTargets allowed = targets.apply(deadLetterQueue);
            Provenance provenance = Provenance.of(connection.user());
            while (moved < limit) {
                Fetched dead = channel.get(deadLetterQueue, false);
                if (dead == null) {
                    break;
                }
                move(channel, confirms, deadLetterQueue, dead, moved, allowed, provenance);
                moved++;
            }
            return moved;
        } catch (IOException e) {
            throw new IllegalStateException("Replaying the dead letters of queue '" + deadLetterQueue
                    + "' failed after " + moved + " moved: " + e.getMessage(), e);
        } finally {
            if (channel != null) {
                channel.close();
            }
        }
    }

    private void move(BrokerChannel channel, ConfirmedChannel confirms, String deadLetterQueue, Fetched dead, int moved,
            ReplayTargets allowed, Provenance provenance) throws IOException {
        long tag = dead.envelope().getDeliveryTag();
        String message = describe(dead.properties());
        boolean ours = provenance.wrote(dead.properties());
        String source = DeadLetterReading.sourceQueue(PlainHeaders.of(dead.properties().getHeaders()), ours);
        if (source == null) {
            requeue(channel, tag);
            throw new IllegalStateException("Cannot tell which queue the dead letter " + message + " in queue '"
                    + deadLetterQueue + "' came from: it has no x-original-queue (of the runtime's), x-death or "
                    + "x-first-death-queue header; it stays in '" + deadLetterQueue + "' (" + moved + " moved before it)");
        }
        if (!allowed.allows(source)) {
            requeue(channel, tag);
            throw new IllegalStateException("The dead letter " + message + " in queue '" + deadLetterQueue
                    + "' says it came from queue '" + source + "', which no subscriber of this application that "
                    + "dead-letters into '" + deadLetterQueue + "' consumes (" + allowed + "): a replay moves letters "
                    + "only back to those, since a publisher can write the headers that name the source. It stays in '"
                    + deadLetterQueue + "' (" + moved + " moved before it)");
        }
        AMQP.BasicProperties properties = ReplayCopy.of(dead.properties(), retryCountHeader, provenance);
        String failure;
        CompletableFuture<PublishOutcome> outcome = new CompletableFuture<>();
        java.util.function.Consumer<PublishOutcome> answer = outcome::complete;
        long sequenceNumber = -1;
        try {
            sequenceNumber = confirms.publish(channel, "", source, true, properties, dead.body(), answer, 0);
            failure = ReplayFailure.of(outcome.get(confirmTimeout.toMillis(), TimeUnit.MILLISECONDS), source);
        } catch (TimeoutException e) {
            failure = "RabbitMQ did not confirm the copy within " + confirmTimeout;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted waiting for the confirm";
        } catch (ExecutionException e) {
            failure = e.getCause().toString();
        } catch (ContentHeaders.TooLargeHeaders e) {
            // Nothing was sent.
            failure = e.getMessage();
        }
        if (failure != null) {
            confirms.forget(sequenceNumber, answer);
            requeue(channel, tag);
            throw new IllegalStateException("Replaying the dead letter " + message + " from queue '" + deadLetterQueue
                    + "' to queue '" + source + "' failed: " + failure + "; it stays in '" + deadLetterQueue + "' ("
                    + moved + " moved before it)");
        }
        channel.ack(tag, false);
    }

    /** Back to the head of its queue; where the channel is gone, its close did that already. */
    private static void requeue(BrokerChannel channel, long tag) {
        if (channel.isOpen()) {
            try {
                channel.reject(tag, true);
            } catch (IOException e) {
                // The channel closed meanwhile, which requeues it as well.
            }
        }
    }

    private static String describe(AMQP.BasicProperties properties) {
        return properties.getMessageId() == null ? "without a message id" : "message-id " + properties.getMessageId();
    }
}
