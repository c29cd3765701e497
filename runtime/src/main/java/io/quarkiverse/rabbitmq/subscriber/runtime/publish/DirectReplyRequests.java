package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;
import io.vertx.core.Context;

/**
 * Requests answered through RabbitMQ's direct reply-to, on a channel of the publisher's connection kept for them.
 * <p>
 * The channel consumes the {@code amq.rabbitmq.reply-to} pseudo-queue, in no-ack mode (RabbitMQ refuses any other),
 * before it publishes its first request: RabbitMQ closes a channel that publishes with that reply-to without consuming
 * it. The server rewrites each request's reply-to into an address that routes straight back to this consumer, from
 * whichever connection the answer is published. Each request has a correlation id of its own, which its answer carries
 * back; a reply whose correlation id no request waits for (it came after its request's timeout, or is no answer to this
 * application) is logged at DEBUG and dropped.
 * <p>
 * A request is published {@code mandatory}, so one that no queue takes is returned and fails at once, naming where it
 * went. It fails with a {@link TimeoutException} when no reply came within its timeout. When the channel closes (the
 * connection was lost, the broker refused a method) every request waiting on it fails, since the address its reply
 * would come to was the closed channel's; the next request opens a new channel.
 * <p>
 * Replies, returns and the close arrive on amqp-client's reader thread (the in-process broker's own): they only touch
 * the map of requests waiting on their channel, never this object's monitor, which is held across calls into the
 * broker. The caller hears the outcome on its Vert.x context, or on a worker ({@link CallerContext}), and the reply is
 * decoded there.
 */
final class DirectReplyRequests {

    private static final Logger LOG = Logger.getLogger(DirectReplyRequests.class);

    /** A request waiting for its reply: where it went, for messages, and what the reply completes. */
    /** A reply as it came: its body, and the properties that say how to read it. */
    private record Answer(byte[] body, AMQP.BasicProperties properties) {
    }

    private record Waiting(String destination, CompletableFuture<Answer> answer) {
    }

    private final Supplier<BrokerConnection> connection;
    /** The channel requests go out on; replaced, under this object's monitor, once it can no longer take replies. */
    private volatile ReplyChannel current;

    DirectReplyRequests(Supplier<BrokerConnection> connection) {
        this.connection = connection;
    }

    /** Whether a request can go out now, without first opening a channel (which waits for the broker). */
    boolean isReady() {
        ReplyChannel channel = current;
        return channel != null && channel.usable();
    }

    /**
     * Publishes a request, whose properties carry reply-to {@code amq.rabbitmq.reply-to} and a correlation id of its
     * own, and returns its reply decoded: on the caller's context (a worker when it has none), or the failure there.
     *
     * @throws IOException when the request could not be published (nothing waits for it then)
     */
    CompletableFuture<Object> request(Context caller, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body, PayloadDecoder decoder, Duration timeout) throws IOException {
        String correlationId = properties.getCorrelationId();
        Waiting waiting = new Waiting(destination(exchange, routingKey), new CompletableFuture<>());
        ReplyChannel channel;
        synchronized (this) {
            channel = channel();
            channel.waiting.put(correlationId, waiting);
            try {
                channel.broker.publish(exchange, routingKey, true, properties, body);
            } catch (IOException | RuntimeException e) {
                channel.waiting.remove(correlationId, waiting);
                throw e;
            }
        }
        // A close that came between the check and the publish has failed what waited before this one: this one too.
        channel.failIfLost();
        CompletableFuture<Object> reply = new CompletableFuture<>();
        waiting.answer().orTimeout(millis(timeout), TimeUnit.MILLISECONDS).whenComplete((answer, failure) -> {
            Throwable reported = failure;
            if (failure instanceof TimeoutException) {
                // A reply that comes later finds nothing waiting.
                channel.waiting.remove(correlationId, waiting);
                reported = new TimeoutException("No reply to the request to " + waiting.destination()
                        + " came within " + timeout + " (correlation id " + correlationId + ")");
            }
            Throwable outcome = reported;
            CallerContext.run(caller, () -> {
                if (outcome != null) {
                    reply.completeExceptionally(outcome);
                    return;
                }
                try {
                    reply.complete(decoder.decode(answer.body(), answer.properties()));
                } catch (RuntimeException e) {
                    reply.completeExceptionally(new IllegalStateException("The reply to the request to "
                            + waiting.destination() + " (correlation id " + correlationId + ") cannot be decoded into "
                            + decoder.expectedType() + ": " + e.getMessage(), e));
                }
            });
        });
        return reply;
    }

    /** The channel, opened and consuming the replies first when there is none that still can. Under the monitor. */
    private ReplyChannel channel() throws IOException {
        ReplyChannel channel = current;
        if (channel != null && channel.usable()) {
            return channel;
        }
        if (channel != null) {
            // Open again after a recovered connection, but without its consumer: a new channel gets a new address.
            channel.broker.close();
        }
        BrokerChannel broker = connection.get().createChannel();
        ReplyChannel created = new ReplyChannel(broker);
        try {
            broker.listen(created);
            broker.consumeAutoAck(BrokerChannel.DIRECT_REPLY_TO, created);
        } catch (IOException | RuntimeException e) {
            broker.close();
            throw e;
        }
        current = created;
        return created;
    }

    /** Where a message goes, for messages: "queue 'q'", or "exchange 'x' with routing key 'k'". */
    static String destination(String exchange, String routingKey) {
        return exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
    }

    /** A timeout too long to count in milliseconds waits as long as it can. */
    private static long millis(Duration timeout) {
        try {
            return timeout.toMillis();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    /** One channel's consumer of the replies and listener of its returns and close. Reader thread. */
    private static final class ReplyChannel implements DeliveryHandler, PublishListener {

        final BrokerChannel broker;
        /** The requests published on this channel and waiting for their reply, by correlation id. */
        final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
        /** Why the channel can no longer take replies (it closed, it lost its consumer), or null while it can. */
        private volatile String lostBecause;

        ReplyChannel(BrokerChannel broker) {
            this.broker = broker;
        }

        boolean usable() {
            return lostBecause == null && broker.isOpen();
        }

        @Override
        public void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
            String correlationId = properties.getCorrelationId();
            Waiting request = correlationId == null ? null : waiting.remove(correlationId);
            if (request == null) {
                // A publisher's text: escaped, so it cannot forge log lines.
                LOG.debugf("A reply with correlation id %s answers no request waiting for one (it came after its "
                        + "request's timeout, or it is no answer to this application): ignored",
                        correlationId == null ? "(none)" : LogText.of(correlationId));
                return;
            }
            request.answer().complete(new Answer(body, properties));
        }

        @Override
        public void cancelled() {
            lost("RabbitMQ cancelled its consumer of " + BrokerChannel.DIRECT_REPLY_TO);
        }

        @Override
        public void returned(int replyCode, String replyText, String exchange, String routingKey,
                AMQP.BasicProperties properties, byte[] body) {
            String correlationId = properties.getCorrelationId();
            Waiting request = correlationId == null ? null : waiting.remove(correlationId);
            if (request != null) {
                request.answer().completeExceptionally(new IllegalStateException("The request to "
                        + request.destination() + " (correlation id " + correlationId + ") is unroutable (" + replyText
                        + "): " + (exchange.isEmpty() ? "no queue of that name exists"
                                : "no binding of the exchange routes it to a queue")));
            }
        }

        @Override
        public void closed(String reason) {
            lost("the channel closed (" + reason + ")");
        }

        /** Every request still waiting fails: the address its reply would come to is gone. */
        private void lost(String why) {
            lostBecause = why;
            failIfLost();
        }

        void failIfLost() {
            String why = lostBecause;
            if (why == null) {
                return;
            }
            for (Map.Entry<String, Waiting> entry : waiting.entrySet()) {
                if (waiting.remove(entry.getKey(), entry.getValue())) {
                    entry.getValue().answer().completeExceptionally(new IllegalStateException("No reply to the request "
                            + "to " + entry.getValue().destination() + " (correlation id " + entry.getKey()
                            + ") can come any more: " + why + " before it came"));
                }
            }
        }

        // Never in confirm mode: nothing to confirm.
        @Override
        public void acked(long sequenceNumber, boolean multiple) {
        }

        @Override
        public void nacked(long sequenceNumber, boolean multiple) {
        }
    }
}
