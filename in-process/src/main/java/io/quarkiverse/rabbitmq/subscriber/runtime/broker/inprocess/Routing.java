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
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * The virtual host's exchanges and their bindings, and publishing through them: the default and built-in exchanges,
 * binding and unbinding (an auto-delete exchange goes with its last binding), mandatory returns, publisher confirms,
 * the delayed-message exchange, whose delays are timers on the clock, and the consistent-hash exchange (as if
 * {@code rabbitmq_consistent_hash_exchange} were enabled). Server thread only.
 */
final class Routing {

    /** The user every in-process connection logs in as (RabbitMQ's default). */
    static final String USER = "guest";

    /** Exchanges a client cannot publish to: RabbitMQ's tracing exchange, the only internal one it declares. */
    private static final Set<String> INTERNAL = Set.of("amq.rabbitmq.trace");
    private static final String DEFAULT_REFUSED = "ACCESS_REFUSED - operation not permitted on the default exchange";

    private final InProcessServer server;
    private final Map<String, ServerExchange> exchanges = new HashMap<>();

    Routing(InProcessServer server) {
        this.server = server;
        // What a RabbitMQ virtual host starts with (a passive declaration of each answers on 3.10.8 and 4.0.5).
        for (String[] builtin : new String[][] { { "", "direct" }, { "amq.direct", "direct" },
                { "amq.fanout", "fanout" }, { "amq.topic", "topic" }, { "amq.headers", "headers" },
                { "amq.match", "headers" }, { "amq.rabbitmq.trace", "topic" } }) {
            exchanges.put(builtin[0], new ServerExchange(builtin[0], builtin[1], true, false, Map.of(),
                    server.version()));
        }
    }

    /** The exchange of that name, or null. */
    ServerExchange exchange(String name) {
        return exchanges.get(name);
    }

    // ---- declarations ---------------------------------------------------------------------------------------------

    /** In RabbitMQ's order: the type, the default exchange, an existing one's equivalence, then the amq. prefix. */
    void declareExchange(ServerChannel channel, String name, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        // RabbitMQ 4.3 cannot run the delayed-message plugin: its exchange type is as unknown there as any other.
        boolean delayedKnown = server.version() != Version.V4_3;
        if (!List.of("direct", "fanout", "topic", "headers", ConsistentHash.TYPE).contains(type)
                && !(delayedKnown && type.equals("x-delayed-message"))) {
            // RabbitMQ 3.10 closes the whole connection with this (503); the in-process broker, which knows no
            // connection of a channel, closes the channel with it. 4.x closes the channel, with 406.
            throw server.version().four()
                    ? server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED,
                            "PRECONDITION_FAILED - unknown exchange type '" + type + "'")
                    : server.channels.refuse(channel, BrokerException.COMMAND_INVALID,
                            "COMMAND_INVALID - unknown exchange type '" + type + "'");
        }
        if (name.isEmpty()) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED, DEFAULT_REFUSED);
        }
        ServerExchange existing = exchanges.get(name);
        if (existing != null) {
            try {
                Equivalence.checkExchange(existing, type, durable, autoDelete);
            } catch (BrokerException e) {
                throw server.channels.refuse(channel, e.replyCode(), e.replyText());
            }
            return;
        }
        if (name.startsWith("amq.")) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED,
                    "ACCESS_REFUSED - exchange name '" + name + "' contains reserved prefix 'amq.*'");
        }
        String refused = type.equals(ConsistentHash.TYPE)
                ? ConsistentHash.refusalOfArguments(arguments == null ? Map.of() : arguments)
                : null;
        if (refused != null) {
            throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED, refused);
        }
        exchanges.put(name, new ServerExchange(name, type, durable, autoDelete,
                arguments == null ? Map.of() : new LinkedHashMap<>(arguments), server.version()));
    }

    void declareExchangePassive(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        if (name.isEmpty()) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED, DEFAULT_REFUSED);
        }
        existingExchange(channel, name);
    }

    /** An exchange that does not exist is no error; the default exchange and any amq. name are refused. */
    void deleteExchange(ServerChannel channel, String name) throws BrokerException {
        channel.ensureOpen();
        if (name.isEmpty()) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED, DEFAULT_REFUSED);
        }
        if (name.startsWith("amq.")) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED,
                    "ACCESS_REFUSED - deletion of system exchange '" + name + "' in vhost '/' not allowed");
        }
        exchanges.remove(name);
    }

    /** The exchange first, then the queue, as RabbitMQ looks them up; then a headers binding's x-match. */
    void bindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        if (exchangeName.isEmpty()) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED, DEFAULT_REFUSED);
        }
        ServerExchange exchange = existingExchange(channel, exchangeName);
        ServerQueue queue = server.queues.existingQueue(channel, queueName);
        Map<String, Object> args = arguments == null ? Map.of() : new LinkedHashMap<>(arguments);
        String invalid = exchange.routingType().equals("headers") ? HeadersMatch.refusal(args)
                : exchange.routingType().equals(ConsistentHash.TYPE) ? ConsistentHash.refusalOfBinding(routingKey)
                        : null;
        if (invalid != null) {
            throw server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED, invalid);
        }
        if (exchange.bindings.stream().noneMatch(binding -> binding.is(queue, routingKey, args))) {
            exchange.bindings.add(new ServerExchange.Binding(queue, routingKey, args));
        }
    }

    /** Removes the binding of that key and arguments; as on RabbitMQ, none, or no such queue or exchange, is fine. */
    void unbindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        channel.ensureOpen();
        if (exchangeName.isEmpty()) {
            throw server.channels.refuse(channel, BrokerException.ACCESS_REFUSED, DEFAULT_REFUSED);
        }
        ServerExchange exchange = exchanges.get(exchangeName);
        ServerQueue queue = server.queues.byName().get(queueName);
        if (exchange != null && queue != null
                && exchange.bindings.removeIf(binding -> binding.is(queue, routingKey, arguments))) {
            deleteIfUnused(exchange);
        }
    }

    /** A deleted queue's bindings go with it. */
    void unbindAll(ServerQueue queue) {
        for (ServerExchange exchange : List.copyOf(exchanges.values())) {
            if (exchange.bindings.removeIf(binding -> binding.queue() == queue)) {
                deleteIfUnused(exchange);
            }
        }
    }

    /** An auto-delete exchange goes when its last binding does (one never bound stays). */
    private void deleteIfUnused(ServerExchange exchange) {
        if (exchange.autoDelete && exchange.bindings.isEmpty() && exchanges.get(exchange.name) == exchange) {
            exchanges.remove(exchange.name);
        }
    }

    /** The exchange a method names; if there is none, the channel is closed with NOT_FOUND. */
    private ServerExchange existingExchange(ServerChannel channel, String name) throws BrokerException {
        ServerExchange exchange = exchanges.get(name);
        if (exchange == null) {
            throw server.channels.refuse(channel, BrokerException.NOT_FOUND,
                    "NOT_FOUND - no exchange '" + name + "' in vhost '/'");
        }
        return exchange;
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
        if (INTERNAL.contains(exchangeName)) {
            server.channels.refuse(channel, BrokerException.ACCESS_REFUSED,
                    "ACCESS_REFUSED - cannot publish to internal exchange '" + exchangeName + "' in vhost '/'");
            return;
        }
        if (properties.getUserId() != null && !USER.equals(properties.getUserId())) {
            // RabbitMQ's check that a message comes from the user it names (without the impersonator tag).
            server.channels.refuse(channel, BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - user_id "
                    + "property set to '" + properties.getUserId() + "' but authenticated user was '" + USER + "'");
            return;
        }
        // Encoded by the channel, on the publisher's thread; then the server's own rewrite, which may refuse it.
        AMQP.BasicProperties wire = server.directReplyTo.rewriteReplyTo(channel, properties);
        if (wire == null) {
            return;
        }
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
                    server.queues.enqueue(exchange.route(routingKey, due, server.queues.byName()),
                            exchangeName, List.of(routingKey), due, body);
                }
            });
            confirm(channel, sequenceNumber);
            return;
        }
        boolean replied = false;
        if (exchangeName.isEmpty()) {
            // No queue has an address's name: a reply to one is unroutable too on RabbitMQ up to 4.0 (a mandatory one is
            // also returned); 4.3 counts a reply its requester took as routed.
            replied = server.directReplyTo.route(routingKey, wire, body) && server.version() == Version.V4_3;
        }
        Set<ServerQueue> targets = exchange.route(routingKey, wire, server.queues.byName());
        if (targets.isEmpty() && !replied && mandatory && channel.listener != null) {
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
