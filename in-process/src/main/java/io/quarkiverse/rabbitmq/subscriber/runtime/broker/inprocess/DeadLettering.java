package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * Dead-lettering: a message rejected, expired or past a quorum queue's delivery limit goes to its queue's
 * dead-letter exchange, under the queue's dead-letter routing key or its own keys, with the {@link DeathHeaders} of the
 * server's version; a copy that would close a cycle (no rejection on the way) is dropped. Server thread only.
 */
final class DeadLettering {

    private final InProcessServer server;

    DeadLettering(InProcessServer server) {
        this.server = server;
    }

    /** Routes the message onwards if its queue has a dead-letter exchange that exists; else it is gone. */
    void deadLetter(ServerQueue queue, ServerMessage message, String reason) {
        if (queue.deadLetterExchange == null) {
            return;
        }
        ServerExchange exchange = server.routing.exchange(queue.deadLetterExchange);
        if (exchange == null) {
            return;
        }
        List<String> keys = queue.deadLetterRoutingKey != null ? List.of(queue.deadLetterRoutingKey)
                : message.routingKeys;
        Version version = server.version();
        AMQP.BasicProperties properties = WireProperties.roundTrip(
                DeathHeaders.record(message, queue.name, reason, server.clock().millis(), version.four(),
                        version.four() && !message.deadLettered));
        Set<ServerQueue> targets = new LinkedHashSet<>();
        for (String key : keys) {
            targets.addAll(exchange.route(key, properties, server.queues.byName()));
        }
        targets.removeIf(target -> DeathHeaders.isCycle(properties, target.name));
        // RabbitMQ 4.3 keeps a dead letter's redelivered flag: one its consumer had arrives redelivered.
        server.queues.enqueue(targets, exchange.name, keys, properties, message.body, true,
                version == Version.V4_3 && message.delivered);
    }
}
