package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;

/**
 * RabbitMQ's direct reply-to, as 3.10.8 and 4.0.5 answer it (measured on both):
 * <ul>
 * <li>A channel may consume the {@code amq.rabbitmq.reply-to} pseudo-queue once, in no-ack mode only; the server
 * gives it an address, {@code amq.rabbitmq.reply-to.<token>}, that lives as long as the consumer.</li>
 * <li>A publish with reply-to {@code amq.rabbitmq.reply-to} has it rewritten to its channel's address; on a channel
 * that does not consume the pseudo-queue it is refused.</li>
 * <li>A publish to the default exchange with an address as routing key goes straight to its consumer, whatever
 * connection it comes from; up to 4.0 the server still counts it unroutable, so a mandatory one is also returned with
 * {@code NO_ROUTE}, and it carries the channel's next delivery tag without using it up (4.3 does not return it, and
 * gives it a tag of its own). One to an address no consumer holds is only returned.</li>
 * <li>A declaration of the pseudo-queue, or of an address whose consumer is there, answers 0 messages and 1 consumer
 * (how a server checks that its requester is still waiting); of any other such name, NOT_FOUND.</li>
 * </ul>
 * Server thread only.
 */
final class DirectReplyTo {

    static final String PSEUDO_QUEUE = BrokerChannel.DIRECT_REPLY_TO;
    private static final String ADDRESS_PREFIX = PSEUDO_QUEUE + ".";

    /** A channel's consumer of the pseudo-queue, and the address replies to it are published to. */
    record Consumer(String tag, String address, DeliveryHandler handler) {
    }

    private final InProcessServer server;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, ServerChannel> byAddress = new HashMap<>();

    DirectReplyTo(InProcessServer server) {
        this.server = server;
    }

    /** Whether a queue name is this feature's: the pseudo-queue, an address, or anything else under its name. */
    static boolean isItsName(String queue) {
        return queue.startsWith(PSEUDO_QUEUE);
    }

    /** basic.consume of the pseudo-queue: refused as RabbitMQ refuses it, with manual acks or a second time. */
    String consume(ServerChannel channel, boolean autoAck, DeliveryHandler handler) throws BrokerException {
        channel.ensureOpen();
        if (!autoAck) {
            throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                    "PRECONDITION_FAILED - reply consumer cannot acknowledge");
        }
        if (channel.replyConsumer != null) {
            throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                    "PRECONDITION_FAILED - reply consumer already set");
        }
        String address = ADDRESS_PREFIX + token("in-process channel " + channel.number) + "." + token(randomBytes());
        channel.replyConsumer = new Consumer("amq.ctag-" + UUID.randomUUID(), address, handler);
        byAddress.put(address, channel);
        return channel.replyConsumer.tag();
    }

    /** basic.cancel: true when the tag was the channel's reply consumer, whose address then routes nowhere. */
    boolean cancel(ServerChannel channel, String tag) {
        if (channel.replyConsumer == null || !channel.replyConsumer.tag().equals(tag)) {
            return false;
        }
        release(channel);
        return true;
    }

    /** The channel's reply consumer goes (cancelled, or its channel closed): its address routes nowhere from now on. */
    void release(ServerChannel channel) {
        if (channel.replyConsumer != null) {
            byAddress.remove(channel.replyConsumer.address());
            channel.replyConsumer = null;
        }
    }

    /**
     * A publish's properties with reply-to {@code amq.rabbitmq.reply-to} rewritten to the channel's address; others as
     * they are. Null when the channel has no reply consumer: then the channel is closed, as RabbitMQ closes it.
     */
    AMQP.BasicProperties rewriteReplyTo(ServerChannel channel, AMQP.BasicProperties properties) {
        if (!PSEUDO_QUEUE.equals(properties.getReplyTo())) {
            return properties;
        }
        if (channel.replyConsumer == null) {
            server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                    "PRECONDITION_FAILED - fast reply consumer does not exist");
            return null;
        }
        return properties.builder().replyTo(channel.replyConsumer.address()).build();
    }

    /**
     * A publish through the default exchange: to an address, it goes to the address's consumer (if it is still
     * there). RabbitMQ sends it with the delivery tag the consumer's channel gives next without using it up, so every
     * reply carries the same tag until a queue's delivery takes that number. True when a requester took it.
     */
    boolean route(String routingKey, AMQP.BasicProperties properties, byte[] body) {
        if (!routingKey.startsWith(ADDRESS_PREFIX)) {
            return false;
        }
        ServerChannel channel = byAddress.get(routingKey);
        if (channel == null || !channel.open) {
            return false;
        }
        // RabbitMQ 4.3 gives each reply a delivery tag of its own; up to 4.0 a reply carries the next one unused.
        long tag = server.version() == InProcessServer.Version.V4_3 ? channel.nextDeliveryTag++ : channel.nextDeliveryTag;
        channel.replyConsumer.handler().delivered(channel.replyConsumer.tag(), new Envelope(tag, false, "", routingKey),
                WireProperties.roundTrip(properties), body.clone());
        return true;
    }

    /** queue.declare, passive or not, of one of its names. */
    QueueState declare(ServerChannel channel, String queue) throws BrokerException {
        channel.ensureOpen();
        if (queue.equals(PSEUDO_QUEUE) || byAddress.containsKey(queue)) {
            return new QueueState(queue, 0, 1);
        }
        throw server.channels.refuse(channel, BrokerException.NOT_FOUND,
                "NOT_FOUND - no queue '" + queue + "' in vhost '/'");
    }

    private byte[] randomBytes() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return bytes;
    }

    private static String token(String text) {
        return token(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String token(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }
}
