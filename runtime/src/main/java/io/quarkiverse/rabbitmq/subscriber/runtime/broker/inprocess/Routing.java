package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;

/**
 * The virtual host's exchanges and their bindings, and publishing through them: the default and built-in exchanges,
 * mandatory returns, publisher confirms and the delayed-message exchange, whose delays are timers on the clock.
 * Server thread only.
 */
final class Routing {

    private final InProcessServer server;
    private final Map<String, ServerExchange> exchanges = new HashMap<>();

    Routing(InProcessServer server) {
        this.server = server;
        for (String[] builtin : new String[][] { { "", "direct" }, { "amq.direct", "direct" },
                { "amq.fanout", "fanout" }, { "amq.topic", "topic" }, { "amq.headers", "headers" } }) {
            exchanges.put(builtin[0], new ServerExchange(builtin[0], builtin[1], true, false, Map.of()));
        }
    }

    /** The exchange of that name, or null. */
    ServerExchange exchange(String name) {
        return exchanges.get(name);
    }

    // ---- declarations ---------------------------------------------------------------------------------------------

    void declareExchange(ServerChannel channel, String name, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        ServerExchange existing = exchanges.get(name);
        if (existing != null) {
            try {
                Equivalence.checkExchange(existing, type, durable, autoDelete);
            } catch (BrokerException e) {
                throw server.channels.refuse(channel, e.replyCode(), e.replyText());
            }
            return;
        }
        if (!List.of("direct", "fanout", "topic", "headers", "x-delayed-message").contains(type)) {
            throw server.channels.refuse(channel, 503, "COMMAND_INVALID - unknown exchange type '" + type + "'");
        }
        exchanges.put(name, new ServerExchange(name, type, durable, autoDelete,
                arguments == null ? Map.of() : new LinkedHashMap<>(arguments)));
    }

    void declareExchangePassive(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        if (!name.isEmpty() && !exchanges.containsKey(name)) {
            throw server.channels.refuse(channel, BrokerException.NOT_FOUND,
                    "NOT_FOUND - no exchange '" + name + "' in vhost '/'");
        }
    }

    void deleteExchange(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        if (!name.isEmpty() && !name.startsWith("amq.")) {
            exchanges.remove(name);
        }
    }

    void bindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        if (exchangeName.isEmpty()) {
            throw server.channels.refuse(channel, 403,
                    "ACCESS_REFUSED - operation not permitted on the default exchange");
        }
        ServerQueue queue = server.queues.existingQueue(channel, queueName);
        ServerExchange exchange = exchanges.get(exchangeName);
        if (exchange == null) {
            throw server.channels.refuse(channel, BrokerException.NOT_FOUND,
                    "NOT_FOUND - no exchange '" + exchangeName + "' in vhost '/'");
        }
        boolean exists = exchange.bindings.stream()
                .anyMatch(binding -> binding.queue() == queue && binding.routingKey().equals(routingKey));
        if (!exists) {
            exchange.bindings.add(new ServerExchange.Binding(queue, routingKey,
                    arguments == null ? Map.of() : new LinkedHashMap<>(arguments)));
        }
    }

    /** A deleted queue's bindings go with it. */
    void unbindAll(ServerQueue queue) {
        for (ServerExchange exchange : exchanges.values()) {
            exchange.bindings.removeIf(binding -> binding.queue() == queue);
        }
    }

    // ---- publishing -----------------------------------------------------------------------------------------------

    void publish(ServerChannel channel, long sequenceNumber, String exchangeName, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        if (!channel.open) {
            return;
        }
        ServerExchange exchange = exchanges.get(exchangeName);
        if (exchange == null) {
            server.channels.refuse(channel, BrokerException.NOT_FOUND,
                    "NOT_FOUND - no exchange '" + exchangeName + "' in vhost '/'");
            return;
        }
        AMQP.BasicProperties wire = properties; // encoded by the channel, on the publisher's thread
        Object delay = exchange.isDelayed() && wire.getHeaders() != null ? wire.getHeaders().get("x-delay") : null;
        if (delay instanceof Number number && number.longValue() > 0) {
            // As the plugin does: the message waits, and a mandatory publish is returned, since nothing routes it now.
            if (mandatory && channel.listener != null) {
                channel.listener.returned(BrokerException.NO_ROUTE, "NO_ROUTE", exchangeName, routingKey, wire, body);
            }
            server.thread.schedule(Duration.ofMillis(number.longValue()), () -> {
                if (exchanges.get(exchangeName) == exchange) {
                    // The plugin delivers the message with its x-delay negated (a long): measured on 4.0.5.
                    Map<String, Object> headers = new LinkedHashMap<>(wire.getHeaders());
                    headers.put("x-delay", -number.longValue());
                    AMQP.BasicProperties due = WireProperties.roundTrip(wire.builder().headers(headers).build());
                    server.queues.enqueue(exchange.route(routingKey, due.getHeaders(), server.queues.byName()),
                            exchangeName, List.of(routingKey), due, body);
                }
            });
            confirm(channel, sequenceNumber);
            return;
        }
        Set<ServerQueue> targets = exchange.route(routingKey, wire.getHeaders(), server.queues.byName());
        if (targets.isEmpty() && mandatory && channel.listener != null) {
            channel.listener.returned(BrokerException.NO_ROUTE, "NO_ROUTE", exchangeName, routingKey, wire, body);
        }
        server.queues.enqueue(targets, exchangeName, List.of(routingKey), wire, body);
        confirm(channel, sequenceNumber);
    }

    private void confirm(ServerChannel channel, long sequenceNumber) {
        if (channel.confirming && channel.listener != null) {
            channel.listener.acked(sequenceNumber, false);
        }
    }
}
