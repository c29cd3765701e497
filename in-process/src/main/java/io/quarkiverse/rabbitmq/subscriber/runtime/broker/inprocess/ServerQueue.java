package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A queue of the in-process broker: its declaration, its ready messages in order, its consumers, and which consumer a
 * message goes to: round robin among those of the highest priority ({@code x-priority}) that have room; with
 * {@code x-single-active-consumer}, only the active one.
 */
final class ServerQueue {

    final String name;
    final boolean durable;
    final boolean autoDelete;
    final Map<String, Object> arguments;
    final boolean quorum;
    /** A stream ({@code x-queue-type=stream}): its messages go to its log in {@link ServerStreams}, never to ready. */
    final boolean stream;
    /** Quorum: deliveries a message may be returned after before it is dead-lettered; null for no limit. */
    final Integer deliveryLimit;
    final Long messageTtl;
    final String deadLetterExchange;
    final String deadLetterRoutingKey;
    /**
     * RabbitMQ 4.3's delayed retry of a quorum queue ({@code x-delayed-retry-type} {@code failed} or {@code all}, with
     * {@code x-delayed-retry-min}): the wait after the first failure in milliseconds, 0 for none; the n-th waits n times
     * as long, never more than {@link #retryDelayMax} (0: no bound).
     */
    final long retryDelayMin;
    final long retryDelayMax;
    /** {@code x-single-active-consumer}: one consumer at a time gets the queue's messages. */
    final boolean singleActive;
    /**
     * Whether the single active consumer goes to the highest priority: a quorum queue on RabbitMQ 4.x, which hands over
     * only once the active one has settled all it holds (no one gets a message meanwhile). Measured on 4.0.5 and
     * 4.3.6. A classic queue, and any queue on 3.10, keeps the consumer that came first, whatever the priorities.
     */
    final boolean priorityHandover;
    /**
     * Whether a cancelled single active consumer stays the active one until its channel closes (nobody gets a message
     * meanwhile, even once it has settled all it holds): a classic queue on RabbitMQ 3.10. Elsewhere the next consumer
     * is active at once, whatever the cancelled one still holds. Measured on 3.10.8, 4.0.5 and 4.3.6.
     */
    final boolean cancelledActiveStays;
    /** The single active consumer, once there is one. */
    ServerConsumer active;
    final TreeMap<Long, ServerMessage> ready = new TreeMap<>();
    final List<ServerConsumer> consumers = new ArrayList<>();
    int nextConsumer;
    Clock.Timer expiryTimer;
    long expiryTimerAt = -1;

    ServerQueue(String name, boolean durable, boolean autoDelete, Map<String, Object> arguments,
            Integer defaultDeliveryLimit, boolean fourX) {
        this.name = name;
        this.durable = durable;
        this.autoDelete = autoDelete;
        this.arguments = arguments;
        this.quorum = "quorum".equals(text(arguments.get("x-queue-type")));
        this.stream = "stream".equals(text(arguments.get("x-queue-type")));
        Number limit = (Number) arguments.get("x-delivery-limit");
        this.deliveryLimit = !quorum ? null : limit != null ? Integer.valueOf(limit.intValue()) : defaultDeliveryLimit;
        Number ttl = (Number) arguments.get("x-message-ttl");
        this.messageTtl = ttl == null ? null : ttl.longValue();
        Object dlx = arguments.get("x-dead-letter-exchange");
        this.deadLetterExchange = dlx == null ? null : dlx.toString();
        Object dlrk = arguments.get("x-dead-letter-routing-key");
        this.deadLetterRoutingKey = dlrk == null ? null : dlrk.toString();
        String retryType = text(arguments.get("x-delayed-retry-type"));
        Number retryMin = (Number) arguments.get("x-delayed-retry-min");
        Number retryMax = (Number) arguments.get("x-delayed-retry-max");
        boolean delaysFailures = quorum && retryMin != null
                && (retryType == null || retryType.equals("failed") || retryType.equals("all"));
        this.retryDelayMin = delaysFailures ? retryMin.longValue() : 0;
        this.retryDelayMax = retryMax == null ? 0 : retryMax.longValue();
        this.singleActive = Boolean.TRUE.equals(arguments.get("x-single-active-consumer"));
        this.priorityHandover = singleActive && quorum && fourX;
        this.cancelledActiveStays = singleActive && !quorum && !fourX;
    }

    /** How long a message that failed {@code failures} times waits before it is ready again; 0: not at all. */
    long retryDelay(int failures) {
        if (retryDelayMin <= 0) {
            return 0;
        }
        long wait = retryDelayMin * Math.max(1, failures);
        return retryDelayMax > 0 ? Math.min(wait, retryDelayMax) : wait;
    }

    static String text(Object value) {
        return value == null ? null : value.toString();
    }

    ServerMessage head() {
        Map.Entry<Long, ServerMessage> first = ready.firstEntry();
        return first == null ? null : first.getValue();
    }

    ServerMessage pollHead() {
        Map.Entry<Long, ServerMessage> first = ready.pollFirstEntry();
        return first == null ? null : first.getValue();
    }

    void put(ServerMessage message) {
        ready.put(message.position, message);
    }

    /**
     * The consumer the next message goes to, or null when none may take one: the single active consumer if it has room,
     * else round robin among the consumers of the highest priority that have room (a lower one gets messages only while
     * all higher ones are full).
     */
    ServerConsumer nextConsumerWithCredit() {
        if (singleActive) {
            ServerConsumer consumer = activeConsumer();
            return consumer != null && consumer.hasCredit() ? consumer : null;
        }
        int highest = Integer.MIN_VALUE;
        for (ServerConsumer consumer : consumers) {
            if (consumer.hasCredit()) {
                highest = Math.max(highest, consumer.priority);
            }
        }
        for (int i = 0; i < consumers.size(); i++) {
            ServerConsumer consumer = consumers.get((nextConsumer + i) % consumers.size());
            if (consumer.hasCredit() && consumer.priority == highest) {
                nextConsumer = (nextConsumer + i + 1) % consumers.size();
                return consumer;
            }
        }
        return null;
    }

    /**
     * The single active consumer: it stays until it goes. Where priorities hand over, a consumer of higher priority
     * takes over once the active one holds no unsettled delivery; until then nobody gets a message (null).
     */
    private ServerConsumer activeConsumer() {
        if (active != null && !consumers.contains(active)) {
            if (cancelledActiveStays && active.channel.open) {
                return null;
            }
            active = null;
        }
        ServerConsumer preferred = null;
        for (ServerConsumer consumer : consumers) {
            if (preferred == null || (priorityHandover && consumer.priority > preferred.priority)) {
                preferred = consumer;
            }
        }
        if (active == null || (priorityHandover && preferred.priority > active.priority && active.unacked == 0)) {
            active = preferred;
        } else if (priorityHandover && preferred.priority > active.priority) {
            return null;
        }
        return active;
    }
}
