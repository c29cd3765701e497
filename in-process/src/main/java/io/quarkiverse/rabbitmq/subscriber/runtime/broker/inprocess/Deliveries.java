package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * How messages leave their queues and are settled: consumers (basic.consume, basic.cancel, basic.qos) and dispatch to
 * them within their prefetch (which one: {@link ServerQueue#nextConsumerWithCredit}), basic.get, and acks and rejects, which
 * settle deliveries by tag (a reject
 * requeues or dead-letters). Server thread only.
 */
final class Deliveries {

    private final InProcessServer server;

    Deliveries(InProcessServer server) {
        this.server = server;
    }

    // ---- consuming ------------------------------------------------------------------------------------------------

    void qos(ServerChannel channel, int prefetch) throws BrokerException {
        channel.ensureOpen();
        channel.prefetch = prefetch;
    }

    /** basic.consume; the direct reply-to pseudo-queue is no queue, and {@link DirectReplyTo} takes its consumer. */
    String consume(ServerChannel channel, String queueName, boolean autoAck, DeliveryHandler handler,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        if (queueName.equals(DirectReplyTo.PSEUDO_QUEUE)) {
            return server.directReplyTo.consume(channel, autoAck, handler);
        }
        ServerQueue queue = server.queues.existingQueue(channel, queueName);
        String tag = "amq.ctag-" + UUID.randomUUID();
        // Only RabbitMQ 4.3 times a quorum queue's consumer out by its own argument; older brokers ignore it.
        Object timeout = arguments.get("x-consumer-timeout");
        long timeoutMillis = server.version() == Version.V4_3 && queue.quorum && !autoAck && timeout instanceof Number n
                ? n.longValue()
                : 0;
        int priority = arguments.get("x-priority") instanceof Number number ? number.intValue() : 0;
        ServerConsumer consumer = new ServerConsumer(tag, channel, queue, channel.prefetch, handler, autoAck,
                timeoutMillis, priority);
        channel.consumers.put(tag, consumer);
        queue.consumers.add(consumer);
        // Deliveries start after consume-ok has reached the client.
        server.thread.post(() -> dispatch(queue));
        return tag;
    }

    void cancel(ServerChannel channel, String tag) throws BrokerException {
        channel.ensureOpen();
        if (server.directReplyTo.cancel(channel, tag)) {
            return;
        }
        ServerConsumer consumer = channel.consumers.remove(tag);
        if (consumer != null) {
            consumer.queue.consumers.remove(consumer);
            // RabbitMQ makes the next single active consumer active at once, whatever the cancelled one still holds.
            ServerQueue queue = consumer.queue;
            server.thread.post(() -> dispatch(queue));
        }
    }

    Fetched get(ServerChannel channel, String queueName, boolean autoAck) throws BrokerException {
        channel.ensureOpen();
        ServerQueue queue = server.queues.existingQueue(channel, queueName);
        server.queues.expireHead(queue);
        ServerMessage message = queue.pollHead();
        if (message == null) {
            return null;
        }
        long tag = channel.nextDeliveryTag++;
        boolean redelivered = message.delivered;
        message.delivered = true;
        if (!autoAck) {
            channel.unacked.put(tag, new ServerChannel.Unacked(message, queue, null));
            server.thread.unackedChanged(1);
        }
        AMQP.BasicProperties properties = deliveredProperties(queue, message, true);
        server.queues.rearmExpiry(queue);
        return new Fetched(new Envelope(tag, redelivered, message.exchange, message.routingKey()), properties,
                message.body.clone(), queue.ready.size());
    }

    /** Hands ready messages to the queue's consumers while one has room ({@link ServerQueue#nextConsumerWithCredit}). */
    void dispatch(ServerQueue queue) {
        if (!server.queues.isDeclared(queue)) {
            return;
        }
        while (true) {
            server.queues.expireHead(queue);
            if (queue.ready.isEmpty()) {
                break;
            }
            ServerConsumer consumer = queue.nextConsumerWithCredit();
            if (consumer == null) {
                break;
            }
            ServerMessage message = queue.pollHead();
            ServerChannel channel = consumer.channel;
            long tag = channel.nextDeliveryTag++;
            boolean redelivered = message.delivered;
            message.delivered = true;
            if (!consumer.autoAck) {
                channel.unacked.put(tag, new ServerChannel.Unacked(message, queue, consumer));
                consumer.unacked++;
                server.thread.unackedChanged(1);
                if (consumer.timeoutMillis > 0) {
                    server.thread.schedule(Duration.ofMillis(consumer.timeoutMillis), () -> timedOut(consumer, tag));
                }
            }
            if (consumer.losesDeliveries) {
                continue;
            }
            consumer.handler.delivered(consumer.tag,
                    new Envelope(tag, redelivered, message.exchange, message.routingKey()),
                    deliveredProperties(queue, message, false), message.body.clone());
        }
        server.queues.rearmExpiry(queue);
    }

    /**
     * What a client sees: a quorum queue adds how many times the message went back (x-delivery-count) once that is
     * above 0; RabbitMQ 3.10 also writes 0 on a first delivery taken with basic.get (not on one to a consumer).
     * RabbitMQ 4.3's quorum queue also says how many times it was handed out before (x-acquired-count), once it was.
     */
    private AMQP.BasicProperties deliveredProperties(ServerQueue queue, ServerMessage message, boolean got) {
        AMQP.BasicProperties properties = message.properties;
        int acquiredBefore = message.acquired++;
        boolean acquiredCount = queue.quorum && server.version() == Version.V4_3 && acquiredBefore > 0;
        if (queue.quorum && (message.returns > 0 || (got && server.version() == Version.V3_10)) || acquiredCount) {
            Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(properties.getHeaders());
            if (acquiredCount) {
                headers.put("x-acquired-count", (long) acquiredBefore);
            }
            if (message.returns > 0 || (got && server.version() == Version.V3_10)) {
                headers.put("x-delivery-count", (long) message.returns);
            }
            properties = properties.builder().headers(headers).build();
        }
        return WireProperties.roundTrip(properties);
    }

    /**
     * RabbitMQ 4.3's consumer timeout: a delivery still unsettled goes back to its queue (not counted as a failure:
     * redelivered, with its x-acquired-count) and the consumer is cancelled ({@code basic.cancel} to the client). 4.3.6
     * also keeps the consumer attached, counted, until its channel closes, and may deliver to it again: not emulated (a
     * client would see a delivery to a tag it no longer knows).
     */
    private void timedOut(ServerConsumer consumer, long tag) {
        ServerChannel channel = consumer.channel;
        ServerChannel.Unacked delivery = channel.unacked.get(tag);
        if (!channel.open || delivery == null || delivery.consumer() != consumer) {
            return;
        }
        channel.unacked.remove(tag);
        consumer.unacked--;
        server.thread.unackedChanged(-1);
        if (channel.consumers.remove(consumer.tag) != null) {
            consumer.queue.consumers.remove(consumer);
            consumer.handler.cancelled();
        }
        if (server.queues.isDeclared(delivery.queue())) {
            delivery.queue().put(delivery.message());
        }
        dispatch(delivery.queue());
    }

    // ---- settling -------------------------------------------------------------------------------------------------

    void ack(ServerChannel channel, long tag, boolean multiple) {
        if (!channel.open) {
            return;
        }
        List<ServerChannel.Unacked> settled = take(channel, tag, multiple);
        if (settled == null) {
            return;
        }
        Set<ServerQueue> touched = new LinkedHashSet<>();
        for (ServerChannel.Unacked delivery : settled) {
            touched.add(delivery.queue());
        }
        touched.forEach(this::dispatch);
    }

    void reject(ServerChannel channel, long tag, boolean requeue) {
        if (!channel.open) {
            return;
        }
        List<ServerChannel.Unacked> settled = take(channel, tag, false);
        if (settled == null) {
            return;
        }
        ServerChannel.Unacked delivery = settled.get(0);
        if (requeue) {
            server.queues.returnToQueue(delivery.queue(), delivery.message(), true);
        } else {
            server.deadLettering.deadLetter(delivery.queue(), delivery.message(), "rejected");
        }
        dispatch(delivery.queue());
    }

    /**
     * Removes settled deliveries from the channel. As RabbitMQ does, the named tag itself must be outstanding (with
     * multiple, the lower ones go too), else the channel closes and nothing is settled: a tag at or above an
     * outstanding one is not enough. Only multiple with tag 0 means "all outstanding", and then none is fine.
     */
    private List<ServerChannel.Unacked> take(ServerChannel channel, long tag, boolean multiple) {
        List<ServerChannel.Unacked> taken = new ArrayList<>();
        if (multiple && tag == 0) {
            taken.addAll(channel.unacked.values());
            channel.unacked.clear();
        } else if (!channel.unacked.containsKey(tag)) {
            // Checked before taking any: the close returns every outstanding delivery to its queue.
            server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                    "PRECONDITION_FAILED - unknown delivery tag " + tag);
            return null;
        } else if (multiple) {
            // The named tag and every lower one still outstanding; higher ones stay.
            var iterator = channel.unacked.entrySet().iterator();
            while (iterator.hasNext()) {
                var entry = iterator.next();
                if (entry.getKey() <= tag) {
                    taken.add(entry.getValue());
                    iterator.remove();
                }
            }
        } else {
            taken.add(channel.unacked.remove(tag));
        }
        for (ServerChannel.Unacked delivery : taken) {
            if (delivery.consumer() != null) {
                delivery.consumer().unacked--;
            }
        }
        server.thread.unackedChanged(-taken.size());
        return taken;
    }
}
