package io.quarkiverse.rabbitmq.subscriber.runtime.devui;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Subscriptions;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What the Dev UI's pages ask for, over its JSON-RPC channel: the subscriptions and the topology plan as the build
 * computed them, each planned queue's depth and consumers on the broker in use, pausing and resuming a subscriber,
 * the dead-letter queues with their first messages and a replay, and for the in-process broker its clock, a way to
 * advance it and a way to publish a test message, and the inbox's and the outbox's figures where a subscription has an
 * inbox. Methods that return plain values run on a worker thread (Dev UI's
 * rule), where {@link DeadLetters} may block.
 */
public class SubscriberJsonRpcService {

    @Inject
    SubscriberStatus status;

    /** The default broker's session: the in-process controls and the page's own publishes are its. */
    @Inject
    BrokerSession session;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions sessions;

    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers found;

    /** The in-process broker's controls, where it is on the class path (dev mode brings it). */
    @Inject
    Instance<EmbeddedBroker.Controls> inProcess;

    @Inject
    SubscriberConfig config;

    @Inject
    Subscriptions control;

    @Inject
    DeadLetters deadLetters;

    /** Unsatisfied in applications without Agroal and JTA. */
    @Inject
    Instance<InboxOutboxFigures> inboxOutbox;

    /**
     * Every subscription: queue, type, cap, dead letter, delay strategy, publish policy, execution model, method. The
     * prefetch and concurrency are the ones in effect: {@code prefetch} is what the channel's {@code basic.qos} asks for
     * (the subscription's own, else {@code quarkus.rabbitmq-subscriber.prefetch}); {@code concurrency} is the
     * subscription's bound, else the prefetch, which then bounds the deliveries in the handler at once.
     * {@code prefetchConfigured} and {@code concurrencyConfigured} are the subscription's own settings ({@code 0}: the
     * default). A batch handler's prefetch is at least its batch size; its concurrency counts batches.
     */
    public JsonArray subscriptions() {
        JsonArray subscriptions = new JsonArray();
        for (SubscriberDefinition definition : status.definitions()) {
            SubscriptionSpec spec = definition.subscription;
            // As SubscriberEngine sets basic.qos, and as the ConcurrencyGate stage bounds the handler: 0 takes the default.
            int prefetch = definition.prefetch(config.prefetch());
            int concurrency = spec.concurrency > 0 ? spec.concurrency : prefetch;
            subscriptions.add(new JsonObject()
                    .put("queue", spec.queue)
                    .put("broker", spec.broker)
                    .put("type", spec.type.name())
                    .put("maxAttempts", spec.maxAttempts)
                    .put("deadLetter", spec.deadLetter)
                    .put("delay", spec.delay.name())
                    .put("waitingQueues", new JsonArray(spec.waitingQueues()))
                    .put("delayedExchange", spec.delayedExchange)
                    .put("retryPublish", spec.quorum() ? null : spec.retryPublish.name())
                    .put("prefetch", prefetch)
                    .put("prefetchConfigured", spec.prefetch)
                    .put("concurrency", concurrency)
                    .put("concurrencyConfigured", spec.concurrency)
                    .put("executionModel", definition.executionModel.name())
                    // A batch handler's: the most messages per call and how long a batch waits for more; null else.
                    .put("batchSize", definition.batches() ? definition.batchSize : null)
                    .put("batchMaxWait", definition.batches() ? definition.batchMaxWaitMillis + "ms" : null)
                    .put("method", definition.method)
                    .put("state", state(spec.queue))
                    // Only where a handler can return retryAfter and its copies wait here (IN_SERVICE).
                    .put("heldCopies", definition.holdsCopies() ? status.heldCopies(spec.queue) : null)
                    .put("partition", partition(spec)));
        }
        return subscriptions;
    }

    /**
     * A partition queue's place: {@code 2 of 8 of 'ledger', active here (instances a, b)} where the broker spreads the
     * partitions, without what this instance cannot know elsewhere; a super stream's partitions this instance is the
     * active consumer of, and a stream's lag, each to within a chunk; null for a queue that is none of those.
     */
    private String partition(SubscriptionSpec spec) {
        io.quarkiverse.rabbitmq.subscriber.runtime.subscription.Partitioning partitioning = spec.partitioning;
        if (partitioning != null && spec.superStream()) {
            // A super stream: which partitions this instance is the active consumer of, and each one's lag here.
            List<Integer> active = status.activePartitions(spec.queue);
            return "super stream of " + partitioning.count + " partitions, active here on " + (active.isEmpty() ? "none"
                    : active.stream().map(index -> {
                        String partition = io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream
                                .partition(spec.queue, index);
                        return partition + " (lag " + lag(status.streamLag(spec.queue, partition)) + ")";
                    }).collect(java.util.stream.Collectors.joining(", ")));
        }
        if (spec.stream()) {
            return "stream, lag " + lag(status.streamLag(spec.queue, spec.queue));
        }
        if (partitioning == null || !partitioning.isPartition()) {
            return null;
        }
        String place = partitioning.index + " of " + partitioning.count + " of '" + partitioning.exchange + "'";
        List<String> instances = status.partitionInstances(partitioning.exchange);
        if (instances.isEmpty()) {
            return place;
        }
        return place + (status.activePartitions(partitioning.exchange).contains(partitioning.index) ? ", active here"
                : "") + " (instances " + String.join(", ", instances) + ")";
    }

    private static String lag(double lag) {
        return Double.isNaN(lag) ? "unknown" : Long.toString((long) lag);
    }

    /**
     * Live counters: each subscribed queue's deliveries by what became of them (one column per label, the labels
     * listed in {@code labels}, in their order), and the deliveries in flight now.
     */
    public JsonObject outcomes() {
        JsonArray queues = new JsonArray();
        Map<String, Map<String, Long>> counts = status.outcomes();
        for (SubscriberDefinition definition : status.definitions()) {
            String queue = definition.subscription.queue;
            JsonObject row = new JsonObject().put("queue", queue);
            OutcomeCounters.LABELS.forEach(label -> row.put(label,
                    counts.getOrDefault(queue, Map.of()).getOrDefault(label, 0L)));
            queues.add(row);
        }
        return new JsonObject().put("labels", new JsonArray(OutcomeCounters.LABELS)).put("queues", queues)
                .put("inFlight", status.inFlight());
    }

    /**
     * The topology plan: queues (name, role, owner, arguments), exchanges (name, type, whether RabbitMQ's own) and
     * bindings (queue, exchange, key, a headers binding's arguments).
     */
    public JsonObject topology() {
        TopologyPlan plan = status.topology();
        JsonArray queues = new JsonArray();
        for (TopologyPlan.QueuePlan queue : plan.queues) {
            queues.add(new JsonObject().put("name", queue.name).put("role", queue.role.name()).put("owner", queue.owner)
                    .put("arguments", new JsonObject(Map.copyOf(queue.arguments))));
        }
        JsonArray exchanges = new JsonArray();
        for (TopologyPlan.ExchangePlan exchange : plan.exchanges) {
            exchanges.add(new JsonObject().put("name", exchange.name).put("type", exchange.type)
                    .put("builtIn", exchange.builtIn()).put("arguments", new JsonObject(Map.copyOf(exchange.arguments))));
        }
        JsonArray bindings = new JsonArray();
        for (TopologyPlan.BindingPlan binding : plan.bindings) {
            bindings.add(new JsonObject().put("queue", binding.queue).put("exchange", binding.exchange)
                    .put("routingKey", binding.routingKey)
                    .put("arguments", new JsonObject(new java.util.LinkedHashMap<>(binding.arguments))));
        }
        return new JsonObject().put("queues", queues).put("exchanges", exchanges).put("bindings", bindings);
    }

    /** Each planned queue as the broker in use sees it now: whether it exists, its depth and consumers. */
    public JsonArray queues() {
        JsonArray queues = new JsonArray();
        for (Map.Entry<String, TopologyPlan> planned : status.topologies().entrySet()) {
            for (TopologyPlan.QueuePlan queue : planned.getValue().queues) {
                queues.add(queue(sessions.of(planned.getKey()), queue));
            }
        }
        return queues;
    }

    /** One planned queue as its broker sees it now. */
    private static JsonObject queue(BrokerSession session, TopologyPlan.QueuePlan queue) {
        {
            JsonObject view = new JsonObject().put("name", queue.name).put("role", queue.role.name())
                    .put("broker", session.name());
            try (BrokerChannel channel = session.connection().createChannel()) {
                QueueState state = channel.declareQueuePassive(queue.name);
                view.put("exists", true).put("depth", state.messageCount()).put("consumers", state.consumerCount());
            } catch (BrokerException e) {
                view.put("exists", false).put("error", e.replyText());
            } catch (Exception e) {
                view.put("exists", false).put("error", String.valueOf(e.getMessage()));
            }
            return view;
        }
    }

    /** Stops the subscriber of a queue taking deliveries ({@link Subscriptions#pause}); answers its state. */
    public String pause(String queue) {
        control.pause(queue);
        return state(queue);
    }

    /** Lets a paused subscriber take deliveries again ({@link Subscriptions#resume}); answers its state. */
    public String resume(String queue) {
        control.resume(queue);
        return state(queue);
    }

    /** Each planned dead-letter queue as the broker in use sees it now ({@link #queues()}'s view). */
    public JsonArray deadLetterQueues() {
        JsonArray queues = new JsonArray();
        for (Object view : queues()) {
            JsonObject queue = (JsonObject) view;
            if (TopologyPlan.Role.DEAD_LETTER.name().equals(queue.getString("role"))) {
                queues.add(queue);
            }
        }
        return queues;
    }

    /** The first {@code max} messages of a dead-letter queue, taking nothing ({@link DeadLetters#peek}). */
    public JsonArray peek(String queue, int max) {
        JsonArray messages = new JsonArray();
        for (DeadLetter letter : deadLetters.peek(queue, max)) {
            JsonObject headers = new JsonObject();
            // JSON holds strings, numbers and booleans; the rest (x-death's tables, timestamps) as their text.
            letter.headers().forEach((name, value) -> headers.put(name,
                    value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                            ? value
                            : String.valueOf(value)));
            messages.add(new JsonObject().put("messageId", letter.messageId()).put("sourceQueue", letter.sourceQueue())
                    .put("reason", letter.reason()).put("exceptionType", letter.exceptionType())
                    .put("exceptionMessage", letter.exceptionMessage()).put("attempts", letter.attempts())
                    .put("bodyPreview", letter.bodyPreview()).put("bodySize", letter.bodySize())
                    .put("headers", headers));
        }
        return messages;
    }

    /** Moves up to {@code max} dead letters back to their queues ({@link DeadLetters#replay}); answers how many. */
    public JsonObject replay(String queue, int max) {
        int moved = deadLetters.replay(queue, max);
        settleInProcess();
        return new JsonObject().put("queue", queue).put("replayed", moved);
    }

    private String state(String queue) {
        return control.state(queue).name();
    }

    /**
     * Which broker the application uses and, for the in-process one, its clock; where a subscription has an inbox, the
     * inbox's rows and the outbox's (as the relay's last pass found them).
     */
    public JsonObject broker() {
        JsonObject broker = new JsonObject().put("broker", session.connection().describe());
        // The named brokers, each its own section: where it is, and whether its connection is up.
        JsonArray named = new JsonArray();
        for (BrokerSession other : sessions.all()) {
            if (!other.name().equals(session.name())) {
                named.add(new JsonObject().put("name", other.name()).put("broker", other.connection().describe())
                        .put("down", other.downBecause().orElse(null)));
            }
        }
        broker.put("brokers", named);
        session.embeddedBroker().ifPresentOrElse(server -> broker.put("inProcess", true)
                .put("clockMillis", server.clock().millis())
                .put("clockPaused", server.clockPaused()), () -> broker.put("inProcess", false));
        if (inboxOutbox.isResolvable() && inboxOutbox.get().active()) {
            InboxOutboxFigures.Inbox inbox = inboxOutbox.get().inbox();
            InboxOutboxFigures.Outbox outbox = inboxOutbox.get().outbox();
            broker.put("inbox", new JsonObject().put("rows", inbox.rows()).put("oldestMillis", inbox.oldestMillis())
                    .put("problem", inbox.problem()));
            broker.put("outbox", new JsonObject().put("relaying", outbox.relaying()).put("waiting", outbox.waiting())
                    .put("oldestAgeMillis", outbox.oldestAgeMillis()).put("lastFailure", outbox.lastFailure())
                    .put("relayed", outbox.relayed()).put("stuck", inboxOutbox.get().stuck()));
        }
        return broker;
    }

    /** In-process broker with a paused clock: lets {@code millis} pass, then answers as {@link #broker()}. */
    public JsonObject advance(long millis) {
        if (session.embeddedBroker().isEmpty()) {
            throw new IllegalStateException("The application uses RabbitMQ, whose time cannot be advanced");
        }
        inProcess.get().advance(Duration.ofMillis(millis));
        return broker();
    }

    /** Publishes a test message (a text body) to a queue through the default exchange, then answers its depth. */
    public JsonObject publish(String queue, String body) {
        // On the queue's own broker: a named broker's subscription's queue is not on the default one.
        try (BrokerChannel channel = sessions.of(found.brokerOf(queue)).connection().createChannel()) {
            channel.publish("", queue, true, new com.rabbitmq.client.AMQP.BasicProperties.Builder()
                    .messageId(java.util.UUID.randomUUID().toString()).contentType("text/plain").build(),
                    body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new IllegalStateException("Could not publish to queue '" + queue + "': " + e.getMessage(), e);
        }
        settleInProcess();
        return new JsonObject().put("published", queue);
    }

    /**
     * On the in-process broker, lets it deliver and settle what a page's action set off before answering, so the page
     * shows the outcome; RabbitMQ's happens in its own time.
     */
    private void settleInProcess() {
        if (session.embeddedBroker().isPresent()) {
            inProcess.get().awaitIdle();
        }
    }
}
