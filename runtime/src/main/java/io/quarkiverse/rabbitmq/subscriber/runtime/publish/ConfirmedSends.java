package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.vertx.core.Context;

/**
 * One lane of confirmed publishes on the publishing connection (a {@link ConfirmChannel}): each publish's future
 * completes on its caller's context (a worker when it had none) once RabbitMQ confirmed it, and fails when it nacked
 * or returned it, the channel closed first, or no confirm came within
 * {@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout}, on the wall clock, however the broker blocks (the
 * caller is told why). The application's sends and the runtime's held copies each have a lane: a publish RabbitMQ
 * refuses closes its channel, which must not fail the other's.
 */
final class ConfirmedSends {

    private final ConfirmChannel channel;
    private final Supplier<BrokerConnection> connection;
    private final Supplier<Duration> timeout;

    /** @param timeout read at each publish (the publisher's configuration, set after it was made) */
    ConfirmedSends(Supplier<BrokerConnection> connection, Supplier<Duration> timeout) {
        this.connection = connection;
        this.timeout = timeout;
        this.channel = new ConfirmChannel(connection);
    }

    /** Its channel is open now: a publish would not wait for the broker to open it. */
    boolean isReady() {
        return channel.isReady();
    }

    /**
     * Publishes and follows it until RabbitMQ answers.
     *
     * @param caller where the future completes; null: on a worker
     * @param mandatory false where the sender said nobody taking the message is fine ({@code OutgoingMessage})
     */
    CompletableFuture<Void> publish(Context caller, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        Duration wait = timeout.get();
        ConfirmChannel.Tracked tracked;
        try {
            tracked = channel.publish(exchange, routingKey, mandatory && !isDirectReplyAddress(exchange, routingKey),
                    properties, body);
        } catch (IOException e) {
            CallerContext.complete(caller, delivered, null,
                    new PublishCut(ConfirmChannel.failure(exchange, routingKey, e.getMessage()), e));
            return delivered;
        } catch (RuntimeException e) {
            CallerContext.complete(caller, delivered, null, e);
            return delivered;
        }
        tracked.confirmed().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ignored, failure) -> {
            Throwable reported = failure;
            if (failure instanceof TimeoutException) {
                // No later confirm or return may find it.
                channel.forget(tracked);
                reported = new TimeoutException(ConfirmChannel.failure(exchange, routingKey,
                        "RabbitMQ did not confirm it within " + wait
                                + " (quarkus.rabbitmq-subscriber.publisher.confirm-timeout)" + blockedReason()));
            }
            CallerContext.complete(caller, delivered, null, reported);
        });
        return delivered;
    }

    /**
     * A reply to a request sent through direct reply-to: RabbitMQ delivers it to the requester's consumer but counts
     * it unroutable all the same (no queue took it), so published {@code mandatory} it would come back as a return
     * while it was delivered. Such a reply goes without {@code mandatory}; one whose requester is gone is lost, as
     * RabbitMQ's direct reply-to loses it anyway.
     */
    private static boolean isDirectReplyAddress(String exchange, String routingKey) {
        return exchange.isEmpty() && routingKey.startsWith(BrokerChannel.DIRECT_REPLY_TO + ".");
    }

    /** Why the broker blocks publishing, when it said so; never opens anything (the runtime may be stopping). */
    private String blockedReason() {
        try {
            return connection.get().blockedBecause()
                    .map(why -> ": the broker blocks publishing (" + why + ")")
                    .orElse(": is the broker blocking publishers (a memory or disk alarm)?");
        } catch (RuntimeException e) {
            return "";
        }
    }
}
