package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Connections;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * {@link RabbitPublisher} on a connection of its own (RabbitMQ blocks a connection that publishes while it is low on
 * memory or disk; the subscribers' connection must keep acking meanwhile): one channel for fire-and-forget publishes,
 * one in confirm mode for the application's confirmed sends, another for the runtime's held copies (a copy RabbitMQ
 * refuses closes its channel, which must not fail the application's sends: {@link ConfirmChannel}), and one for
 * requests ({@link DirectReplyRequests}). Every message gets a message id (a random
 * UUID unless the message has one) and the properties {@link OutgoingProperties} builds.
 * <p>
 * Confirms, nacks and returns arrive on amqp-client's reader thread. The caller's future is completed from there on
 * the caller's Vert.x context, or on a worker when the caller had none: a continuation that blocks (another
 * {@code sendConfirmedAndAwait}) must never hold the reader, which would then never read the confirm it waits for. A confirmed
 * send fails with a {@link TimeoutException} when the broker has not confirmed within
 * {@code quarkus.rabbitmq-subscriber.publisher.confirm-timeout}.
 */
@Singleton
public class BrokerRabbitPublisher implements RabbitPublisher {

    @Inject
    Connections connections;

    @Inject
    ObjectMapper objectMapper;

    @Inject
    SubscriberConfig config;

    @Inject
    PartitionAddresses partitions;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers observers;

    /** Satisfied only with {@code outbox.enabled} (and Agroal and JTA): sends inside a transaction go to the outbox. */
    @Inject
    jakarta.enterprise.inject.Instance<TransactionalSends> transactionalSends;

    /** {@link #transactionalSends} resolved once: null without the outbox. */
    private volatile java.util.Optional<TransactionalSends> outbox;

    /** The longest per-message expiration RabbitMQ accepts, 2^32 - 1 ms. */
    private static final Duration LONGEST_EXPIRATION = Duration.ofMillis(4_294_967_295L);

    private PayloadEncoder encoder;
    private volatile BrokerChannel plain;
    /** The application's confirmed sends. */
    private final ConfirmChannel confirming = new ConfirmChannel(() -> connections.publishingConnection());
    /** The runtime's held copies ({@link #publishConfirmed}): a copy the broker refuses closes this, not the app's. */
    private final ConfirmChannel copies = new ConfirmChannel(() -> connections.publishingConnection());
    private DirectReplyRequests requests;

    @Override
    public OutgoingMessage toPartition(String subscription, String key) {
        return partitions.address(subscription, key);
    }

    @Override
    public Uni<Void> send(OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        return inTransactionOr(message, false,
                CallerContext.onCallersContext(() -> isReady(plain), caller -> Uni.createFrom().item(() -> {
                    Prepared prepared = prepare(message);
                    try {
                        synchronized (this) {
                            plainChannel().publish(message.exchange(), message.routingKey(), false, prepared.properties(),
                                    prepared.body());
                        }
                    } catch (IOException e) {
                        prepared.observation().done(e);
                        throw new IllegalStateException(failure(message.exchange(), message.routingKey(), e.getMessage()), e);
                    } catch (RuntimeException e) {
                        prepared.observation().done(e);
                        throw e;
                    }
                    prepared.observation().done(null);
                    return null;
                })));
    }

    @Override
    public Uni<Void> sendConfirmed(OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        return inTransactionOr(message, message.mandatory(), CallerContext.onCallersContext(confirming::isReady,
                caller -> Uni.createFrom().completionStage(() -> publishConfirmed(caller, message))));
    }

    /**
     * With {@code outbox.enabled}: a send made inside a JTA transaction is written to the outbox in it when the
     * {@code Uni} is subscribed to (on the transaction's thread: it completes once the row is written, the only promise
     * possible before the commit), and published after the commit; else {@code direct}. Subscribing to it after its
     * transaction ended, or on another thread, fails: it would leave without the guarantee.
     */
    private Uni<Void> inTransactionOr(OutgoingMessage message, boolean mandatory, Uni<Void> direct) {
        TransactionalSends sends = transactionalSends();
        if (sends == null) {
            return direct;
        }
        Object calledIn = sends.transaction();
        return Uni.createFrom().deferred(() -> {
            Object now = sends.transaction();
            if (calledIn == null && now == null) {
                return direct;
            }
            if (calledIn != null && !calledIn.equals(now)) {
                return Uni.createFrom().failure(new IllegalStateException("A message to " + destination(message)
                        + " was sent inside a transaction and subscribed to outside it (after its end, or on another "
                        + "thread): subscribe to (or await) the Uni inside the transaction, so that it is written to "
                        + "the outbox and leaves with the commit"));
            }
            return Uni.createFrom().item(() -> {
                Prepared prepared = prepare(message);
                try {
                    sends.write(message.exchange(), message.routingKey(), mandatory, prepared.properties(),
                            prepared.body());
                } catch (RuntimeException e) {
                    prepared.observation().done(e);
                    throw e;
                }
                prepared.observation().done(null);
                return null;
            });
        });
    }

    private TransactionalSends transactionalSends() {
        java.util.Optional<TransactionalSends> resolved = outbox;
        if (resolved == null) {
            // Null where the publisher is made by hand, without CDI (its unit tests).
            resolved = transactionalSends != null && transactionalSends.isResolvable()
                    ? java.util.Optional.of(transactionalSends.get())
                    : java.util.Optional.empty();
            outbox = resolved;
        }
        return resolved.orElse(null);
    }

    /**
     * Sends the request through RabbitMQ's direct reply-to ({@link DirectReplyRequests}), on the caller's context
     * when a request channel is open; the first request from an event loop opens it on a worker, as a first publish
     * opens its channel. Its observation ends once the request is written, as a fire-and-forget send's does.
     */
    @Override
    public <R> Uni<R> request(OutgoingMessage request, Class<R> replyType, Duration timeout) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(replyType, "replyType");
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("A request to " + destination(request)
                    + " needs a positive timeout, and was given " + timeout);
        }
        if (request.replyTo() != null || request.correlationId() != null) {
            throw new IllegalArgumentException("A request to " + destination(request) + " carries reply-to "
                    + request.replyTo() + " and correlation id " + request.correlationId()
                    + ": request() sets both itself (send() sends a message with your own)");
        }
        String correlationId = UUID.randomUUID().toString();
        // A request no one took in time is useless afterwards: it expires from the queue with its timeout (unless
        // that is beyond what RabbitMQ accepts as an expiration).
        OutgoingMessage sent = request.replyTo(BrokerChannel.DIRECT_REPLY_TO).correlationId(correlationId);
        OutgoingMessage expiring = sent.expiration().isPresent() || timeout.compareTo(LONGEST_EXPIRATION) > 0 ? sent
                : sent.expiration(timeout);
        PayloadDecoder decoder = PayloadDecoder.of(replyType, objectMapper);
        return CallerContext.onCallersContext(() -> requests().isReady(), caller -> Uni.createFrom().completionStage(() -> {
            Prepared prepared;
            try {
                prepared = prepare(expiring);
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
            try {
                CompletableFuture<Object> reply = requests().request(caller, expiring.exchange(),
                        expiring.routingKey(), prepared.properties(), prepared.body(), decoder, timeout);
                prepared.observation().done(null);
                return reply;
            } catch (IOException e) {
                prepared.observation().done(e);
                return CompletableFuture.failedFuture(new IllegalStateException(
                        failure(expiring.exchange(), expiring.routingKey(), e.getMessage()), e));
            } catch (RuntimeException e) {
                prepared.observation().done(e);
                return CompletableFuture.failedFuture(e);
            }
        })).map(BrokerRabbitPublisher::<R> reply);
    }

    /** The decoder made the reply an {@code R} (for {@code int.class} an {@code Integer}, which a cast refuses). */
    @SuppressWarnings("unchecked")
    private static <R> R reply(Object decoded) {
        return (R) decoded;
    }

    /**
     * Publishes in confirm mode; the returned stage completes on the caller's context (a worker when it had none)
     * once the broker confirmed, nacked, returned, or did not answer in time.
     */
    private CompletableFuture<Void> publishConfirmed(Context caller, OutgoingMessage message) {
        Prepared prepared;
        try {
            prepared = prepare(message);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> delivered = publishConfirmed(confirming, caller, message.exchange(),
                message.routingKey(), message.mandatory(), prepared.properties(), prepared.body());
        delivered.whenComplete((ignored, failure) -> prepared.observation().done(failure));
        return delivered;
    }

    /** A message ready to publish: its body, its properties, and the observers' record of it, to end once sent. */
    private record Prepared(byte[] body, AMQP.BasicProperties properties, PublishObservation observation) {
    }

    /**
     * Encodes the message and builds its properties ({@link OutgoingProperties}) with its headers as the observers
     * leave them (a trace context added). A failure ends the observation and is thrown.
     */
    private Prepared prepare(OutgoingMessage message) {
        byte[] body = encoder().encode(message.payload());
        // A map of our own: observers add to it.
        Map<String, Object> headers = new LinkedHashMap<>(message.headers());
        PublishObservation observation = observers.get().publishing(message.exchange(), message.routingKey(), headers);
        try {
            return new Prepared(body, OutgoingProperties.of(message, headers), observation);
        } catch (RuntimeException e) {
            observation.done(e);
            throw e;
        }
    }

    /**
     * Publishes a message as it is ({@code mandatory}, in confirm mode): for the runtime's own messages, such as the
     * copies the {@code IN_SERVICE} delay holds. The stage completes on a worker once the broker confirmed it, and
     * fails when the broker nacked or returned it, did not confirm within the confirm timeout, or the channel closed
     * first. Opening the channel waits for the broker: from an event loop that happens on a worker.
     */
    public CompletableFuture<Void> publishConfirmed(String exchange, String routingKey, AMQP.BasicProperties properties,
            byte[] body) {
        return publishConfirmed(exchange, routingKey, true, properties, body);
    }

    /**
     * As {@link #publishConfirmed(String, String, AMQP.BasicProperties, byte[])}, {@code mandatory} as given: for the
     * outbox's rows, which keep what their sender asked.
     */
    public CompletableFuture<Void> publishConfirmed(String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        // The runtime's held copies carry their delivery's trace: the observers continue it.
        PublishObservation observation = PublishObservation.NONE;
        AMQP.BasicProperties sent = properties;
        if (observers.get().active()) {
            var observed = observers.get().publishingCopy(exchange, routingKey, properties);
            sent = observed.properties();
            observation = observed.observation();
        }
        PublishObservation done = observation;
        CompletableFuture<Void> published;
        try {
            published = publishConfirmedCopy(exchange, routingKey, mandatory, sent, body);
        } catch (RuntimeException e) {
            // A worker pool that refuses the task (stopping): the caller holds the copy and tries again, or says it
            // is lost; it must hear of it either way.
            published = CompletableFuture.failedFuture(e);
        }
        published.whenComplete((ignored, failure) -> done.done(failure));
        return published;
    }

    private CompletableFuture<Void> publishConfirmedCopy(String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        if (copies.isReady() || !Context.isOnEventLoopThread()) {
            return publishConfirmed(copies, null, exchange, routingKey, mandatory, properties, body);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        Infrastructure.getDefaultWorkerPool().execute(() -> publishConfirmed(copies, null, exchange, routingKey,
                mandatory, properties, body)
                .whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        result.complete(null);
                    } else {
                        result.completeExceptionally(failure);
                    }
                }));
        return result;
    }

    /** @param mandatory false where the sender said nobody taking the message is fine ({@code OutgoingMessage}) */
    private CompletableFuture<Void> publishConfirmed(ConfirmChannel channel, Context caller, String exchange,
            String routingKey, boolean mandatory, AMQP.BasicProperties properties, byte[] body) {
        CompletableFuture<Void> delivered = new CompletableFuture<>();
        Duration timeout = config.publisher().confirmTimeout();
        ConfirmChannel.Tracked tracked;
        try {
            tracked = channel.publish(exchange, routingKey, mandatory && !isDirectReplyAddress(exchange, routingKey),
                    properties, body);
        } catch (IOException e) {
            CallerContext.complete(caller, delivered, null,
                    new IllegalStateException(failure(exchange, routingKey, e.getMessage()), e));
            return delivered;
        } catch (RuntimeException e) {
            CallerContext.complete(caller, delivered, null, e);
            return delivered;
        }
        tracked.confirmed().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((ignored, failure) -> {
            Throwable reported = failure;
            if (failure instanceof TimeoutException) {
                // No later confirm or return may find it.
                channel.forget(tracked);
                reported = new TimeoutException(failure(exchange, routingKey, "RabbitMQ did not confirm it within "
                        + timeout + " (quarkus.rabbitmq-subscriber.publisher.confirm-timeout)" + blockedReason()));
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
            return connections.publishingConnection().blockedBecause()
                    .map(why -> ": the broker blocks publishing (" + why + ")")
                    .orElse(": is the broker blocking publishers (a memory or disk alarm)?");
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static boolean isReady(BrokerChannel channel) {
        return channel != null && channel.isOpen();
    }

    private static String failure(String exchange, String routingKey, String why) {
        return ConfirmChannel.failure(exchange, routingKey, why);
    }

    private static String destination(OutgoingMessage message) {
        return DirectReplyRequests.destination(message.exchange(), message.routingKey());
    }

    private synchronized PayloadEncoder encoder() {
        if (encoder == null) {
            encoder = new PayloadEncoder(objectMapper);
        }
        return encoder;
    }

    private synchronized DirectReplyRequests requests() {
        if (requests == null) {
            requests = new DirectReplyRequests(connections::publishingConnection);
        }
        return requests;
    }

    private BrokerChannel plainChannel() throws IOException {
        BrokerChannel channel = plain;
        if (channel == null || !channel.isOpen()) {
            channel = connections.publishingConnection().createChannel();
            plain = channel;
        }
        return channel;
    }
}
