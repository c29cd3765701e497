package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Connections;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * {@link RabbitPublisher} on a connection of its own (RabbitMQ blocks a connection that publishes while it is low on
 * memory or disk; the subscribers' connection must keep acking meanwhile): one channel for fire-and-forget publishes,
 * a lane of confirmed sends for the application's and another for the runtime's held copies and outbox rows
 * ({@link ConfirmedSends}: a publish RabbitMQ refuses closes its channel, which must not fail the other's), and one
 * channel for requests ({@link DirectReplyRequests}). Every message gets a message id (a random UUID unless the message
 * has one) and the properties {@link OutgoingProperties} builds ({@link Prepared}); inside a transaction with the
 * outbox, a send goes to the outbox ({@link OutboxDiversion}).
 * <p>
 * Confirms, nacks, returns and replies arrive on amqp-client's reader thread; the caller hears of them on its own Vert.x
 * context, or on a worker when it had none ({@link CallerContext}).
 */
public class BrokerRabbitPublisher implements RabbitPublisher {

    /** The broker it publishes to: {@code Broker.DEFAULT} or a configured name. */
    private final String broker;
    private final Connections connections;
    private final Codecs codecs;
    private final SubscriberConfig config;
    private final PartitionAddresses partitions;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers observers;
    /** Satisfied only with {@code outbox.enabled} (and Agroal and JTA): sends inside a transaction go to the outbox. */
    private final jakarta.enterprise.inject.Instance<TransactionalSends> transactionalSends;
    /** The publishers of the other brokers, for a message that names one ({@code OutgoingMessage.broker}). */
    private final java.util.function.Function<String, BrokerRabbitPublisher> others;

    /** One per broker, made by {@link RabbitPublishers}. */
    BrokerRabbitPublisher(String broker, Connections connections, Codecs codecs, SubscriberConfig config,
            PartitionAddresses partitions, io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers observers,
            jakarta.enterprise.inject.Instance<TransactionalSends> transactionalSends,
            java.util.function.Function<String, BrokerRabbitPublisher> others) {
        this.broker = broker;
        this.connections = connections;
        this.codecs = codecs;
        this.config = config;
        this.partitions = partitions;
        this.observers = observers;
        this.transactionalSends = transactionalSends;
        this.others = others;
        this.confirming = new ConfirmedSends(connections::publishingConnection, () -> config.publisher().confirmTimeout());
        this.copies = new ConfirmedSends(connections::publishingConnection, () -> config.publisher().confirmTimeout());
    }

    /** The broker it publishes to. */
    public String broker() {
        return broker;
    }

    /** The publisher of the broker the message names, when it names another than this one's; else null. */
    private BrokerRabbitPublisher elsewhere(OutgoingMessage message) {
        return message.broker().filter(named -> !named.equals(broker)).map(others).orElse(null);
    }

    /** The longest per-message expiration RabbitMQ accepts, 2^32 - 1 ms. */
    private static final Duration LONGEST_EXPIRATION = Duration.ofMillis(4_294_967_295L);

    private OutboxDiversion outbox;
    private volatile BrokerChannel plain;
    /** The application's confirmed sends. */
    private final ConfirmedSends confirming;
    /** The runtime's held copies and outbox rows ({@link #publishConfirmed}): a refusal closes this, not the app's. */
    private final ConfirmedSends copies;
    private DirectReplyRequests requests;

    @Override
    public OutgoingMessage toPartition(String subscription, String key) {
        return partitions.address(subscription, key);
    }

    @Override
    public Uni<Void> send(OutgoingMessage message) {
        Objects.requireNonNull(message, "message");
        BrokerRabbitPublisher elsewhere = elsewhere(message);
        if (elsewhere != null) {
            return elsewhere.send(message);
        }
        return outbox().inTransactionOr(message, false, this::prepare,
                CallerContext.onCallersContext(() -> isReady(plain), caller -> Uni.createFrom().item(() -> {
                    Prepared prepared = prepare(message);
                    try {
                        synchronized (this) {
                            plainChannel().publish(message.exchange(), message.routingKey(), false, prepared.properties(),
                                    prepared.body());
                        }
                    } catch (IOException e) {
                        prepared.observation().done(e);
                        throw new IllegalStateException(
                                ConfirmChannel.failure(message.exchange(), message.routingKey(), e.getMessage()), e);
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
        BrokerRabbitPublisher elsewhere = elsewhere(message);
        if (elsewhere != null) {
            return elsewhere.sendConfirmed(message);
        }
        return outbox().inTransactionOr(message, message.mandatory(), this::prepare,
                CallerContext.onCallersContext(confirming::isReady,
                        caller -> Uni.createFrom().completionStage(() -> sendConfirmed(caller, message))));
    }

    /** Confirmed; the stage completes on the caller's context (a worker when it had none). */
    private CompletableFuture<Void> sendConfirmed(Context caller, OutgoingMessage message) {
        Prepared prepared;
        try {
            prepared = prepare(message);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> delivered = confirming.publish(caller, message.exchange(), message.routingKey(),
                message.mandatory(), prepared.properties(), prepared.body());
        delivered.whenComplete((ignored, failure) -> prepared.observation().done(failure));
        return delivered;
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
        BrokerRabbitPublisher elsewhere = elsewhere(request);
        if (elsewhere != null) {
            return elsewhere.request(request, replyType, timeout);
        }
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
        PayloadDecoder decoder = codecs.decoder(replyType);
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
                        ConfirmChannel.failure(expiring.exchange(), expiring.routingKey(), e.getMessage()), e));
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
            published = publishCopy(exchange, routingKey, mandatory, sent, body);
        } catch (RuntimeException e) {
            // A worker pool that refuses the task (stopping): the caller holds the copy and tries again, or says it
            // is lost; it must hear of it either way.
            published = CompletableFuture.failedFuture(e);
        }
        published.whenComplete((ignored, failure) -> done.done(failure));
        return published;
    }

    private CompletableFuture<Void> publishCopy(String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        if (copies.isReady() || !Context.isOnEventLoopThread()) {
            return copies.publish(null, exchange, routingKey, mandatory, properties, body);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        Infrastructure.getDefaultWorkerPool().execute(() -> copies.publish(null, exchange, routingKey, mandatory,
                properties, body)
                .whenComplete((ignored, failure) -> {
                    if (failure == null) {
                        result.complete(null);
                    } else {
                        result.completeExceptionally(failure);
                    }
                }));
        return result;
    }

    private Prepared prepare(OutgoingMessage message) {
        return Prepared.of(message, codecs.encoder(), observers.get());
    }

    private static boolean isReady(BrokerChannel channel) {
        return channel != null && channel.isOpen();
    }

    private static String destination(OutgoingMessage message) {
        return DirectReplyRequests.destination(message.exchange(), message.routingKey());
    }

    private synchronized OutboxDiversion outbox() {
        if (outbox == null) {
            outbox = new OutboxDiversion(transactionalSends, broker);
        }
        return outbox;
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
