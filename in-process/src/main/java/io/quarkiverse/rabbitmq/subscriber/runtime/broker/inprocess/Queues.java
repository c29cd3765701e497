package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * The virtual host's queues: their declaration (a redeclaration checked for {@link Equivalence}), the messages waiting
 * in them in order, and their per-message and per-queue TTLs, which expire messages from the head on the clock.
 * Server thread only.
 */
final class Queues {

    private final InProcessServer server;
    private final Map<String, ServerQueue> queues = new LinkedHashMap<>();
    /** The next message's place in its queue, counted across queues. */
    private long positions;

    Queues(InProcessServer server) {
        this.server = server;
    }

    /** The queues by name, as the default exchange routes to them. */
    Map<String, ServerQueue> byName() {
        return queues;
    }

    /** Whether this queue is still declared: not deleted, nor replaced by a new one of its name. */
    boolean isDeclared(ServerQueue queue) {
        return queues.get(queue.name) == queue;
    }

    // ---- declarations ---------------------------------------------------------------------------------------------

    QueueState declareQueue(ServerChannel channel, String name, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        if (DirectReplyTo.isItsName(name)) {
            // As RabbitMQ: before the reserved amq. prefix, whatever the other fields say.
            return server.directReplyTo.declare(channel, name);
        }
        String queueName = name.isEmpty() ? "amq.gen-" + UUID.randomUUID() : name;
        Map<String, Object> args = arguments == null ? Map.of() : new LinkedHashMap<>(arguments);
        ServerQueue existing = queues.get(queueName);
        if (existing != null) {
            try {
                Equivalence.checkQueue(existing, durable, autoDelete, args, server.version().four());
            } catch (BrokerException e) {
                throw server.channels.refuse(channel, e.replyCode(), e.replyText());
            }
            return state(existing);
        }
        // The prefix is the server's: refused in a name the client gives, never in one the server made up.
        if (!name.isEmpty() && queueName.startsWith("amq.")) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED,
                    "ACCESS_REFUSED - queue name '" + queueName + "' contains reserved prefix 'amq.*'");
        }
        Object type = args.get("x-queue-type");
        if (type != null && !"quorum".equals(type.toString()) && !"classic".equals(type.toString())
                && !"stream".equals(type.toString())) {
            throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                    "PRECONDITION_FAILED - invalid arg 'x-queue-type' for queue '" + queueName
                            + "' in vhost '/': {unsupported_queue_type,<<\"" + type + "\">>}");
        }
        if (type != null && ("quorum".equals(type.toString()) || "stream".equals(type.toString()))) {
            String invalid = !durable ? "non-durable"
                    : exclusive ? "exclusive-owner" : autoDelete ? "auto-delete" : null;
            if (invalid != null) {
                throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                        "PRECONDITION_FAILED - invalid property '" + invalid + "' for queue '" + queueName
                                + "' in vhost '/'");
            }
        }
        ServerQueue queue = new ServerQueue(queueName, durable, autoDelete, args,
                server.version().four() ? Integer.valueOf(20) : null, server.version().four());
        queues.put(queueName, queue);
        if (queue.stream) {
            server.streams.declared(queueName);
        }
        return state(queue);
    }

    QueueState declareQueuePassive(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        if (DirectReplyTo.isItsName(name)) {
            return server.directReplyTo.declare(channel, name);
        }
        return state(existingQueue(channel, name));
    }

    /** The queue a method names; if there is none, the channel is closed with NOT_FOUND. */
    ServerQueue existingQueue(ServerChannel channel, String name) throws BrokerException {
        try {
            return lookup(name);
        } catch (BrokerException e) {
            throw server.channels.refuse(channel, e.replyCode(), e.replyText());
        }
    }

    ServerQueue lookup(String name) throws BrokerException {
        ServerQueue queue = queues.get(name);
        if (queue == null) {
            throw new BrokerException(BrokerException.NOT_FOUND, "NOT_FOUND - no queue '" + name + "' in vhost '/'",
                    null);
        }
        return queue;
    }

    private QueueState state(ServerQueue queue) {
        expireHead(queue);
        return new QueueState(queue.name, queue.ready.size(), queue.consumers.size());
    }

    int deleteQueue(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        ServerQueue queue = queues.remove(name);
        if (queue == null) {
            return 0;
        }
        for (ServerConsumer consumer : queue.consumers) {
            consumer.channel.consumers.remove(consumer.tag);
            consumer.handler.cancelled();
        }
        server.routing.unbindAll(queue);
        if (queue.stream) {
            server.streams.deleted(name);
        }
        if (queue.expiryTimer != null) {
            queue.expiryTimer.cancel();
        }
        return queue.ready.size();
    }

    int purgeQueue(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        ServerQueue queue = existingQueue(channel, name);
        int count = queue.ready.size();
        queue.ready.clear();
        rearmExpiry(queue);
        return count;
    }

    // ---- messages -------------------------------------------------------------------------------------------------

    /** Puts the message at the back of each target, one message per queue, then dispatches each target. */
    void enqueue(Set<ServerQueue> targets, String exchange, List<String> routingKeys,
            AMQP.BasicProperties properties, byte[] body) {
        enqueue(targets, exchange, routingKeys, properties, body, false, false);
    }

    /**
     * @param deadLettered it comes by dead-lettering (its death headers are the broker's own)
     * @param delivered it was handed out before: its next delivery says {@code redelivered}
     */
    void enqueue(Set<ServerQueue> targets, String exchange, List<String> routingKeys,
            AMQP.BasicProperties properties, byte[] body, boolean deadLettered, boolean delivered) {
        for (ServerQueue queue : targets) {
            if (queue.stream) {
                // A log keeps what is written to it, at its offset, for every reader.
                server.streams.append(queue.name, properties, body);
                continue;
            }
            ServerMessage message = new ServerMessage(properties, body, exchange, routingKeys,
                    expiry(queue, properties));
            message.deadLettered = deadLettered;
            message.delivered = delivered;
            message.position = positions++;
            queue.put(message);
        }
        targets.forEach(server.deliveries::dispatch);
    }

    /**
     * A message given back: a quorum queue counts it, and past its limit dead-letters it. On RabbitMQ 4.3 a quorum
     * queue declared with a delayed retry holds a rejected one ({@code failed}) back before it is ready again.
     */
    void returnToQueue(ServerQueue queue, ServerMessage message, boolean rejected) {
        if (!isDeclared(queue)) {
            return;
        }
        message.returns++;
        if (queue.quorum && queue.deliveryLimit != null && message.returns > queue.deliveryLimit) {
            server.deadLettering.deadLetter(queue, message, "delivery_limit");
            return;
        }
        long wait = rejected && server.version() == Version.V4_3 ? queue.retryDelay(message.returns) : 0;
        if (wait > 0) {
            server.thread.schedule(Duration.ofMillis(wait), () -> {
                if (isDeclared(queue)) {
                    queue.put(message);
                    server.deliveries.dispatch(queue);
                }
            });
            return;
        }
        if (queue.quorum && server.version() == Version.V3_10) {
            // RabbitMQ 3.10's quorum queue puts a returned message at its back; RabbitMQ 4's returns it to its place.
            message.position = positions++;
        }
        queue.put(message);
    }

    // ---- expiry ---------------------------------------------------------------------------------------------------

    private long expiry(ServerQueue queue, AMQP.BasicProperties properties) {
        Long ttl = queue.messageTtl;
        if (properties.getExpiration() != null) {
            try {
                long perMessage = Long.parseLong(properties.getExpiration());
                ttl = ttl == null ? perMessage : Math.min(ttl, perMessage);
            } catch (NumberFormatException e) {
                // RabbitMQ refuses such a publish; here it simply does not expire
            }
        }
        return ttl == null ? -1 : server.clock().millis() + ttl;
    }

    /** Messages expire from the head only: one with a long TTL holds back the ones behind it. */
    void expireHead(ServerQueue queue) {
        long now = server.clock().millis();
        ServerMessage head;
        while ((head = queue.head()) != null && head.expiresAt >= 0 && now >= head.expiresAt) {
            queue.pollHead();
            server.deadLettering.deadLetter(queue, head, "expired");
        }
    }

    /** Keeps one timer per queue, for its head's expiry. */
    void rearmExpiry(ServerQueue queue) {
        ServerMessage head = queue.head();
        long want = head == null ? -1 : head.expiresAt;
        if (want == queue.expiryTimerAt) {
            return;
        }
        if (queue.expiryTimer != null) {
            queue.expiryTimer.cancel();
            queue.expiryTimer = null;
        }
        queue.expiryTimerAt = want;
        if (want >= 0) {
            Duration delay = Duration.ofMillis(Math.max(0, want - server.clock().millis()));
            queue.expiryTimer = server.thread.schedule(delay, () -> {
                queue.expiryTimer = null;
                queue.expiryTimerAt = -1;
                server.deliveries.dispatch(queue);
            });
        }
    }
}
