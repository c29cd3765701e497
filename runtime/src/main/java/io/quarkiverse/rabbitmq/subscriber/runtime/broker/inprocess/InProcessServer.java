package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A RabbitMQ server in the process: one virtual host, its exchanges, queues and channels, run by one thread in the
 * order operations arrive, as a server processes a connection's frames. It keeps what a RabbitMQ 3.10 server keeps
 * and answers what it answers; it has no retry, delay or topology logic of the runtime's.
 * <p>
 * Time comes from a {@link Clock}: per-message and per-queue TTLs and the delayed exchange's delays are timers on it,
 * so a paused clock holds them until a test advances it.
 */
public final class InProcessServer {

    private static final Logger LOG = Logger.getLogger(InProcessServer.class);

    /** The server version whose defaults it follows where versions differ. */
    public enum Version {
        /** RabbitMQ 3.10: a quorum queue has no delivery limit unless declared. */
        V3_10,
        /** RabbitMQ 4.x: a quorum queue declared without a limit gets 20. */
        V4
    }

    private final Clock clock;
    private final Version version;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final Thread thread;
    private final Object idleMonitor = new Object();
    /** Tasks submitted and not finished; with {@link #unacked}, what "idle" means. Guarded by idleMonitor. */
    private int pending;
    private int unacked;
    private volatile boolean stopped;

    /** Timers on the clock, cancelled when the server stops so none outlives it (dev mode keeps Vert.x). */
    private final Set<Clock.Timer> timers = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Map<String, ServerExchange> exchanges = new HashMap<>();
    private final Map<String, ServerQueue> queues = new LinkedHashMap<>();
    private long positions;
    private int channelNumbers;

    public InProcessServer(Clock clock, Version version) {
        this.clock = clock;
        this.version = version;
        for (String[] builtin : new String[][] { { "", "direct" }, { "amq.direct", "direct" },
                { "amq.fanout", "fanout" }, { "amq.topic", "topic" }, { "amq.headers", "headers" } }) {
            exchanges.put(builtin[0], new ServerExchange(builtin[0], builtin[1], true, false, Map.of()));
        }
        thread = new Thread(this::runTasks, "in-process-rabbitmq");
        thread.setDaemon(true);
        thread.start();
    }

    public Clock clock() {
        return clock;
    }

    public Version version() {
        return version;
    }

    public InProcessConnection connect() {
        return new InProcessConnection(this);
    }

    /** Stops the broker thread; what it held is gone, as with a server that stops without persistence. */
    public void stop() {
        stopped = true;
        thread.interrupt();
        timers.forEach(Clock.Timer::cancel);
        timers.clear();
        synchronized (idleMonitor) {
            pending = 0;
            unacked = 0;
            idleMonitor.notifyAll();
        }
    }

    // ---- the broker thread ------------------------------------------------------------------------------------

    private void runTasks() {
        while (!stopped) {
            Runnable task;
            try {
                task = tasks.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                task.run();
            } catch (RuntimeException e) {
                LOG.errorf(e, "The in-process broker failed an operation");
            } finally {
                synchronized (idleMonitor) {
                    pending--;
                    idleMonitor.notifyAll();
                }
            }
        }
    }

    /** Runs the operation on the broker thread and waits for its answer. */
    <T> T call(Callable<T> operation) throws BrokerException {
        if (Thread.currentThread() == thread) {
            try {
                return operation.call();
            } catch (BrokerException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        if (stopped) {
            throw new BrokerException(320, "CONNECTION_FORCED - the in-process broker has stopped", null);
        }
        FutureTask<T> task = new FutureTask<>(operation);
        post(task);
        try {
            // Bounded: a server stopped after this call was queued never answers it.
            return task.get(60, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new BrokerException(320, "CONNECTION_FORCED - the in-process broker did not answer within 60s"
                    + (stopped ? ": it has stopped" : ""), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted waiting for the in-process broker", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof BrokerException refusal) {
                // A fresh exception, so the caller's stack shows where the call came from.
                throw new BrokerException(refusal.replyCode(), refusal.replyText(), refusal);
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Queues the operation for the broker thread, as a client's frame that expects no answer. */
    void post(Runnable operation) {
        if (stopped) {
            // A stopped server takes no frames, as a closed socket would not.
            return;
        }
        synchronized (idleMonitor) {
            pending++;
        }
        tasks.add(operation);
    }

    /**
     * Waits until no operation is queued and every delivery has been settled, or fails after the timeout naming what
     * is still unsettled.
     */
    public void awaitIdle(Duration timeout) {
        await(timeout, true);
    }

    /** Waits until no operation is queued; deliveries may stay unsettled (a consumer holding them is quiet too). */
    public void awaitQuiet(Duration timeout) {
        await(timeout, false);
    }

    private void await(Duration timeout, boolean settled) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (idleMonitor) {
            while (pending > 0 || (settled && unacked > 0)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException("The in-process broker is not idle after " + timeout + ": "
                            + pending + " operation(s) queued, " + unacked + " delivery(ies) unsettled");
                }
                try {
                    idleMonitor.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted waiting for the in-process broker", e);
                }
            }
        }
    }

    private void unackedChanged(int delta) {
        synchronized (idleMonitor) {
            unacked += delta;
        }
    }

    // ---- channels -----------------------------------------------------------------------------------------------

    ServerChannel openChannel() throws BrokerException {
        return call(() -> new ServerChannel(++channelNumbers));
    }

    /** Closes the channel: its consumers go, its unacked deliveries return to their queues. */
    void closeChannel(ServerChannel channel, BrokerException reason) {
        if (!channel.open) {
            return;
        }
        channel.open = false;
        channel.closedBy = reason;
        for (ServerConsumer consumer : channel.consumers.values()) {
            consumer.queue.consumers.remove(consumer);
        }
        channel.consumers.clear();
        Set<ServerQueue> touched = new LinkedHashSet<>();
        for (ServerChannel.Unacked delivery : new ArrayList<>(channel.unacked.values())) {
            unackedChanged(-1);
            returnToQueue(delivery.queue(), delivery.message());
            touched.add(delivery.queue());
        }
        channel.unacked.clear();
        touched.forEach(this::dispatch);
        if (channel.listener != null) {
            channel.listener.closed(reason == null ? "closed by the application" : reason.replyText());
        }
        if (reason != null && channel.brokerCloseListener != null) {
            channel.brokerCloseListener.accept(reason);
        }
    }

    /** A call on a closed channel fails with the reason the channel was closed for. */
    static void ensureOpen(ServerChannel channel) throws BrokerException {
        if (!channel.open) {
            BrokerException reason = channel.closedBy;
            throw new BrokerException(reason == null ? 504 : reason.replyCode(),
                    reason == null ? "channel is already closed" : reason.replyText(), reason);
        }
    }

    /** A method the server refuses closes the channel, and the caller gets the reason. */
    private BrokerException refuse(ServerChannel channel, int code, String text) {
        BrokerException refusal = new BrokerException(code, text, null);
        closeChannel(channel, refusal);
        return refusal;
    }

    // ---- declarations ---------------------------------------------------------------------------------------------

    QueueState declareQueue(ServerChannel channel, String name, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        ensureOpen(channel);
        String queueName = name.isEmpty() ? "amq.gen-" + UUID.randomUUID() : name;
        Map<String, Object> args = arguments == null ? Map.of() : new LinkedHashMap<>(arguments);
        ServerQueue existing = queues.get(queueName);
        if (existing != null) {
            try {
                Equivalence.checkQueue(existing, durable, autoDelete, args, version == Version.V4);
            } catch (BrokerException e) {
                throw refuse(channel, e.replyCode(), e.replyText());
            }
            return state(existing);
        }
        if (queueName.startsWith("amq.")) {
            throw refuse(channel, 403, "ACCESS_REFUSED - queue name '" + queueName + "' contains reserved prefix 'amq.*'");
        }
        Object type = args.get("x-queue-type");
        if (type != null && !"quorum".equals(type.toString()) && !"classic".equals(type.toString())) {
            throw refuse(channel, BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - invalid arg "
                    + "'x-queue-type' for queue '" + queueName + "' in vhost '/': {unsupported_queue_type,<<\""
                    + type + "\">>}");
        }
        if (type != null && "quorum".equals(type.toString())) {
            String invalid = !durable ? "non-durable" : exclusive ? "exclusive-owner" : autoDelete ? "auto-delete" : null;
            if (invalid != null) {
                throw refuse(channel, BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - invalid property '"
                        + invalid + "' for queue '" + queueName + "' in vhost '/'");
            }
        }
        ServerQueue queue = new ServerQueue(queueName, durable, autoDelete, args,
                version == Version.V4 ? Integer.valueOf(20) : null);
        queues.put(queueName, queue);
        return state(queue);
    }

    QueueState declareQueuePassive(ServerChannel channel, String name) throws BrokerException {
        ensureOpen(channel);
        return state(existingQueue(channel, name));
    }

    private ServerQueue existingQueue(ServerChannel channel, String name) throws BrokerException {
        try {
            return lookup(name);
        } catch (BrokerException e) {
            throw refuse(channel, e.replyCode(), e.replyText());
        }
    }

    private ServerQueue lookup(String name) throws BrokerException {
        ServerQueue queue = queues.get(name);
        if (queue == null) {
            throw new BrokerException(BrokerException.NOT_FOUND, "NOT_FOUND - no queue '" + name + "' in vhost '/'", null);
        }
        return queue;
    }

    private QueueState state(ServerQueue queue) {
        expireHead(queue);
        return new QueueState(queue.name, queue.ready.size(), queue.consumers.size());
    }

    int deleteQueue(ServerChannel channel, String name) throws BrokerException {
        ensureOpen(channel);
        ServerQueue queue = queues.remove(name);
        if (queue == null) {
            return 0;
        }
        for (ServerConsumer consumer : queue.consumers) {
            consumer.channel.consumers.remove(consumer.tag);
            consumer.handler.cancelled();
        }
        for (ServerExchange exchange : exchanges.values()) {
            exchange.bindings.removeIf(binding -> binding.queue() == queue);
        }
        if (queue.expiryTimer != null) {
            queue.expiryTimer.cancel();
        }
        return queue.ready.size();
    }

    int purgeQueue(ServerChannel channel, String name) throws BrokerException {
        ensureOpen(channel);
        ServerQueue queue = existingQueue(channel, name);
        int count = queue.ready.size();
        queue.ready.clear();
        rearmExpiry(queue);
        return count;
    }

    void declareExchange(ServerChannel channel, String name, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        ensureOpen(channel);
        ServerExchange existing = exchanges.get(name);
        if (existing != null) {
            try {
                Equivalence.checkExchange(existing, type, durable, autoDelete);
            } catch (BrokerException e) {
                throw refuse(channel, e.replyCode(), e.replyText());
            }
            return;
        }
        if (!List.of("direct", "fanout", "topic", "headers", "x-delayed-message").contains(type)) {
            throw refuse(channel, 503, "COMMAND_INVALID - unknown exchange type '" + type + "'");
        }
        exchanges.put(name, new ServerExchange(name, type, durable, autoDelete,
                arguments == null ? Map.of() : new LinkedHashMap<>(arguments)));
    }

    void declareExchangePassive(ServerChannel channel, String name) throws BrokerException {
        ensureOpen(channel);
        if (!name.isEmpty() && !exchanges.containsKey(name)) {
            throw refuse(channel, BrokerException.NOT_FOUND, "NOT_FOUND - no exchange '" + name + "' in vhost '/'");
        }
    }

    void deleteExchange(ServerChannel channel, String name) throws BrokerException {
        ensureOpen(channel);
        if (!name.isEmpty() && !name.startsWith("amq.")) {
            exchanges.remove(name);
        }
    }

    void bindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        ensureOpen(channel);
        if (exchangeName.isEmpty()) {
            throw refuse(channel, 403, "ACCESS_REFUSED - operation not permitted on the default exchange");
        }
        ServerQueue queue = existingQueue(channel, queueName);
        ServerExchange exchange = exchanges.get(exchangeName);
        if (exchange == null) {
            throw refuse(channel, BrokerException.NOT_FOUND, "NOT_FOUND - no exchange '" + exchangeName + "' in vhost '/'");
        }
        boolean exists = exchange.bindings.stream()
                .anyMatch(binding -> binding.queue() == queue && binding.routingKey().equals(routingKey));
        if (!exists) {
            exchange.bindings.add(new ServerExchange.Binding(queue, routingKey,
                    arguments == null ? Map.of() : new LinkedHashMap<>(arguments)));
        }
    }

    // ---- consuming ------------------------------------------------------------------------------------------------

    void qos(ServerChannel channel, int prefetch) throws BrokerException {
        ensureOpen(channel);
        channel.prefetch = prefetch;
    }

    String consume(ServerChannel channel, String queueName, DeliveryHandler handler) throws BrokerException {
        ensureOpen(channel);
        ServerQueue queue = existingQueue(channel, queueName);
        String tag = "amq.ctag-" + UUID.randomUUID();
        ServerConsumer consumer = new ServerConsumer(tag, channel, queue, channel.prefetch, handler);
        channel.consumers.put(tag, consumer);
        queue.consumers.add(consumer);
        // Deliveries start after consume-ok has reached the client.
        post(() -> dispatch(queue));
        return tag;
    }

    void cancel(ServerChannel channel, String tag) throws BrokerException {
        ensureOpen(channel);
        ServerConsumer consumer = channel.consumers.remove(tag);
        if (consumer != null) {
            consumer.queue.consumers.remove(consumer);
        }
    }

    Fetched get(ServerChannel channel, String queueName, boolean autoAck) throws BrokerException {
        ensureOpen(channel);
        ServerQueue queue = existingQueue(channel, queueName);
        expireHead(queue);
        ServerMessage message = queue.pollHead();
        if (message == null) {
            return null;
        }
        long tag = channel.nextDeliveryTag++;
        boolean redelivered = message.delivered;
        message.delivered = true;
        if (!autoAck) {
            channel.unacked.put(tag, new ServerChannel.Unacked(message, queue, null));
            unackedChanged(1);
        }
        AMQP.BasicProperties properties = deliveredProperties(queue, message, true);
        rearmExpiry(queue);
        return new Fetched(new Envelope(tag, redelivered, message.exchange, message.routingKey()), properties,
                message.body.clone(), queue.ready.size());
    }

    /** Hands ready messages to the queue's consumers while one has room, round robin. */
    private void dispatch(ServerQueue queue) {
        if (queues.get(queue.name) != queue) {
            return;
        }
        while (true) {
            expireHead(queue);
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
            channel.unacked.put(tag, new ServerChannel.Unacked(message, queue, consumer));
            consumer.unacked++;
            unackedChanged(1);
            try {
                consumer.handler.delivered(consumer.tag,
                        new Envelope(tag, redelivered, message.exchange, message.routingKey()),
                        deliveredProperties(queue, message, false), message.body.clone());
            } catch (RuntimeException | Error e) {
                consumer.handler.failed(e);
            }
        }
        rearmExpiry(queue);
    }

    /**
     * What a client sees: a quorum queue adds how many times the message went back (x-delivery-count) once that is
     * above 0; RabbitMQ 3.10 also writes 0 on a first delivery taken with basic.get (not on one to a consumer).
     */
    private AMQP.BasicProperties deliveredProperties(ServerQueue queue, ServerMessage message, boolean got) {
        AMQP.BasicProperties properties = message.properties;
        if (queue.quorum && (message.returns > 0 || (got && version == Version.V3_10))) {
            Map<String, Object> headers = properties.getHeaders() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(properties.getHeaders());
            headers.put("x-delivery-count", (long) message.returns);
            properties = properties.builder().headers(headers).build();
        }
        return WireProperties.roundTrip(properties);
    }

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
            returnToQueue(delivery.queue(), delivery.message());
        } else {
            deadLetter(delivery.queue(), delivery.message(), "rejected");
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
            refuse(channel, BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - unknown delivery tag " + tag);
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
        unackedChanged(-taken.size());
        return taken;
    }

    /** A message given back: a quorum queue counts it, and past its limit dead-letters it. */
    private void returnToQueue(ServerQueue queue, ServerMessage message) {
        if (queues.get(queue.name) != queue) {
            return;
        }
        message.returns++;
        if (queue.quorum && queue.deliveryLimit != null && message.returns > queue.deliveryLimit) {
            deadLetter(queue, message, "delivery_limit");
            return;
        }
        if (queue.quorum && version == Version.V3_10) {
            // A quorum queue of RabbitMQ 3.10 puts a returned message at its back; RabbitMQ 4's returns it to its place.
            message.position = positions++;
        }
        queue.put(message);
    }

    // ---- publishing -----------------------------------------------------------------------------------------------

    void publish(ServerChannel channel, long sequenceNumber, String exchangeName, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        if (!channel.open) {
            return;
        }
        ServerExchange exchange = exchanges.get(exchangeName);
        if (exchange == null) {
            refuse(channel, BrokerException.NOT_FOUND, "NOT_FOUND - no exchange '" + exchangeName + "' in vhost '/'");
            return;
        }
        AMQP.BasicProperties wire = properties; // encoded by the channel, on the publisher's thread
        Object delay = exchange.isDelayed() && wire.getHeaders() != null ? wire.getHeaders().get("x-delay") : null;
        if (delay instanceof Number number && number.longValue() > 0) {
            // As the plugin does: the message waits, and a mandatory publish is returned, since nothing routes it now.
            if (mandatory && channel.listener != null) {
                channel.listener.returned(BrokerException.NO_ROUTE, "NO_ROUTE", exchangeName, routingKey, wire, body);
            }
            schedule(Duration.ofMillis(number.longValue()), () -> {
                if (exchanges.get(exchangeName) == exchange) {
                    // The plugin delivers the message with its x-delay negated (a long): measured on 4.0.5.
                    Map<String, Object> headers = new LinkedHashMap<>(wire.getHeaders());
                    headers.put("x-delay", -number.longValue());
                    AMQP.BasicProperties due = WireProperties.roundTrip(wire.builder().headers(headers).build());
                    enqueue(exchange.route(routingKey, due.getHeaders(), queues), exchangeName,
                            List.of(routingKey), due, body);
                }
            });
            confirm(channel, sequenceNumber);
            return;
        }
        Set<ServerQueue> targets = exchange.route(routingKey, wire.getHeaders(), queues);
        if (targets.isEmpty() && mandatory && channel.listener != null) {
            channel.listener.returned(BrokerException.NO_ROUTE, "NO_ROUTE", exchangeName, routingKey, wire, body);
        }
        enqueue(targets, exchangeName, List.of(routingKey), wire, body);
        confirm(channel, sequenceNumber);
    }

    private void confirm(ServerChannel channel, long sequenceNumber) {
        if (channel.confirming && channel.listener != null) {
            channel.listener.acked(sequenceNumber, false);
        }
    }

    private void enqueue(Set<ServerQueue> targets, String exchange, List<String> routingKeys,
            AMQP.BasicProperties properties, byte[] body) {
        enqueue(targets, exchange, routingKeys, properties, body, false);
    }

    private void enqueue(Set<ServerQueue> targets, String exchange, List<String> routingKeys,
            AMQP.BasicProperties properties, byte[] body, boolean deadLettered) {
        for (ServerQueue queue : targets) {
            ServerMessage message = new ServerMessage(properties, body, exchange, routingKeys,
                    expiry(queue, properties));
            message.deadLettered = deadLettered;
            message.position = positions++;
            queue.put(message);
        }
        targets.forEach(this::dispatch);
    }

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
        return ttl == null ? -1 : clock.millis() + ttl;
    }

    // ---- expiry and dead letters ------------------------------------------------------------------------------------

    /** Messages expire from the head only: one with a long TTL holds back the ones behind it. */
    private void expireHead(ServerQueue queue) {
        long now = clock.millis();
        ServerMessage head;
        while ((head = queue.head()) != null && head.expiresAt >= 0 && now >= head.expiresAt) {
            queue.pollHead();
            deadLetter(queue, head, "expired");
        }
    }

    /** Keeps one timer per queue, for its head's expiry. */
    private void rearmExpiry(ServerQueue queue) {
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
            queue.expiryTimer = schedule(Duration.ofMillis(Math.max(0, want - clock.millis())), () -> {
                queue.expiryTimer = null;
                queue.expiryTimerAt = -1;
                dispatch(queue);
            });
        }
    }

    /** A timer whose work runs on the broker thread; remembered until it fires, so stop can cancel it. */
    private Clock.Timer schedule(Duration delay, Runnable work) {
        Clock.Timer[] holder = new Clock.Timer[1];
        Clock.Timer timer = clock.schedule(delay, () -> {
            timers.remove(holder[0]);
            post(work);
        });
        holder[0] = timer;
        timers.add(timer);
        return new Clock.Timer() {
            @Override
            public boolean cancel() {
                timers.remove(timer);
                return timer.cancel();
            }
        };
    }

    private void deadLetter(ServerQueue queue, ServerMessage message, String reason) {
        if (queue.deadLetterExchange == null) {
            return;
        }
        ServerExchange exchange = exchanges.get(queue.deadLetterExchange);
        if (exchange == null) {
            return;
        }
        List<String> keys = queue.deadLetterRoutingKey != null ? List.of(queue.deadLetterRoutingKey)
                : message.routingKeys;
        AMQP.BasicProperties properties = WireProperties.roundTrip(
                DeathHeaders.record(message, queue.name, reason, clock.millis(), version == Version.V4,
                        version == Version.V4 && !message.deadLettered));
        Set<ServerQueue> targets = new LinkedHashSet<>();
        for (String key : keys) {
            targets.addAll(exchange.route(key, properties.getHeaders(), queues));
        }
        targets.removeIf(target -> DeathHeaders.isCycle(properties, target.name));
        enqueue(targets, exchange.name, keys, properties, message.body, true);
    }

    // ---- inspection, for the test API ---------------------------------------------------------------------------------

    /** A message waiting in a queue, as the test API shows it. */
    public record Waiting(AMQP.BasicProperties properties, byte[] body) {
    }

    /** What waits in a queue, head first, without taking it. */
    public List<Waiting> waiting(String queueName) throws BrokerException {
        return call(() -> {
            ServerQueue queue = lookup(queueName);
            expireHead(queue);
            List<Waiting> waiting = new ArrayList<>();
            for (ServerMessage message : queue.ready.values()) {
                waiting.add(new Waiting(WireProperties.roundTrip(message.properties), message.body.clone()));
            }
            return waiting;
        });
    }

    /** A queue's declaration and counts: arguments, ready, unacked, consumers. */
    public record QueueSnapshot(String name, boolean durable, Map<String, Object> arguments, int ready, int unacked,
            int consumers) {
    }

    public QueueSnapshot snapshot(String queueName) throws BrokerException {
        return call(() -> {
            ServerQueue queue = lookup(queueName);
            expireHead(queue);
            int unsettled = 0;
            for (ServerConsumer consumer : queue.consumers) {
                unsettled += consumer.unacked;
            }
            return new QueueSnapshot(queue.name, queue.durable, Map.copyOf(queue.arguments), queue.ready.size(),
                    unsettled, queue.consumers.size());
        });
    }
}
