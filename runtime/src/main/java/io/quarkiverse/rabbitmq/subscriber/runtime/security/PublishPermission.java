package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmedChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;

/**
 * Checks at startup that the user may publish through the default exchange ({@code amq.default}), where every copy,
 * dead letter, delayed retry and reply-by-name goes. A topology that exists already needs no configure permission, so
 * nothing else at startup touches the write permission: without this check a user lacking it starts, and the first
 * retry is refused. AMQP has no way to ask for a permission, so the check publishes one empty message with a routing
 * key no queue can have (the {@code amq.} prefix is reserved for the server), confirmed: RabbitMQ acks what nothing
 * routes, and closes the channel for a refused write.
 */
public final class PublishPermission {

    private static final Logger LOG = Logger.getLogger(PublishPermission.class);
    /** No client can declare a queue named so: the message goes nowhere. */
    static final String NOWHERE = "amq.rabbitmq-subscriber.permission-check";
    private static final long WAIT_SECONDS = 10;

    private PublishPermission() {
    }

    /**
     * @param publishing the subscribers that publish through it whatever their handlers answer (a cap, a delay on the
     *        broker, outputs): a refusal stops startup naming them
     * @param others the rest, which publish through it only when a handler answers {@code retryAfter}: a refusal is a
     *        WARN naming them
     */
    public static void check(BrokerConnection connection, List<String> publishing, List<String> others)
            throws IOException {
        if (publishing.isEmpty() && others.isEmpty()) {
            return;
        }
        BrokerException refused = refusal(connection);
        if (refused == null) {
            return;
        }
        if (!publishing.isEmpty()) {
            IllegalStateException failure = PermissionRefusal.of(refused, "write", "exchange 'amq.default'",
                    "to publish the copies, dead letters and delayed retries of the subscribers of " + publishing
                            + " (checked at startup)");
            throw failure != null ? failure
                    : new IllegalStateException("RabbitMQ refused a publish to the default exchange: "
                            + refused.replyText(), refused);
        }
        LOG.warnf("RabbitMQ refuses this user the write permission on exchange 'amq.default' (%s): the subscribers of "
                + "%s can ack, retry and drop, but a handler answering retryAfter would have its delayed copy refused. "
                + "Grant it (the Security page lists what each mode needs)", refused.replyText(), others);
    }

    /** The broker's refusal, or null when it took the publish. */
    private static BrokerException refusal(BrokerConnection connection) throws IOException {
        CompletableFuture<String> answer = new CompletableFuture<>();
        BrokerChannel channel = connection.createChannel();
        try {
            // Told on the reader thread: a confirm or a nack means the write was taken, a close says why it was not.
            ConfirmedChannel confirms = new ConfirmedChannel(Runnable::run, ConfirmedChannel.Untracked.IGNORED);
            channel.confirmSelect(confirms);
            confirms.publish(channel, "", NOWHERE, false, new AMQP.BasicProperties.Builder().build(), new byte[0],
                    outcome -> answer.complete(outcome.kind() != PublishOutcome.Kind.CLOSED ? null
                            : outcome.reason() == null ? "the channel closed" : outcome.reason()),
                    0);
            String closed = answer.get(WAIT_SECONDS, TimeUnit.SECONDS);
            if (closed == null) {
                return null;
            }
            int code = closed.contains("ACCESS_REFUSED") ? BrokerException.ACCESS_REFUSED : 0;
            return new BrokerException(code, closed, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while checking the write permission on amq.default", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // No answer in time (a broker blocking publishers): nothing learned, nothing refused.
            LOG.debugf("No answer to the write-permission check on amq.default within %d s: %s", WAIT_SECONDS, e);
            return null;
        } finally {
            channel.close();
        }
    }
}
