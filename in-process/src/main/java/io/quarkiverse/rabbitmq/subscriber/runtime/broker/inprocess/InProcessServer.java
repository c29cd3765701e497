package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A RabbitMQ server in the process: one virtual host, its exchanges, queues and channels, run by one thread in the
 * order operations arrive, as a server processes a connection's frames. It keeps what a RabbitMQ server of its
 * {@link Version} keeps and answers what it answers; it has no retry, delay or topology logic of the runtime's.
 * <p>
 * Time comes from a {@link Clock}: per-message and per-queue TTLs and the delayed exchange's delays are timers on it,
 * so a paused clock holds them until a test advances it.
 * <p>
 * This class is the entry point; the work is done by its parts, which reach each other through its fields:
 * {@link ServerThread} runs every operation, {@link Channels} opens and closes channels, {@link Routing} keeps the
 * exchanges and publishes through them, {@link Queues} keeps the queues, their messages and TTLs,
 * {@link DeadLettering} dead-letters, {@link Deliveries} delivers to consumers and settles, and {@link DirectReplyTo}
 * gives requests their reply-to addresses and replies to them.
 */
public final class InProcessServer implements EmbeddedBroker {

    /** The server version whose defaults it follows where versions differ. */
    public enum Version {
        /** RabbitMQ 3.10: a quorum queue has no delivery limit unless declared. */
        V3_10("3.10.8"),
        /** RabbitMQ 4.0: a quorum queue declared without a limit gets 20. */
        V4("4.0.5"),
        /**
         * RabbitMQ 4.3: as 4.0, and a quorum queue holds a failed delivery back when declared with
         * {@code x-delayed-retry-*}, tells how often a message was handed out ({@code x-acquired-count}), and a dead
         * letter arrives redelivered.
         */
        V4_3("4.3.6");

        private final String emulates;

        Version(String emulates) {
            this.emulates = emulates;
        }

        /** The RabbitMQ release whose answers it gives, as that broker names itself. */
        public String emulates() {
            return emulates;
        }

        /** RabbitMQ 4.x, any minor version. */
        public boolean four() {
            return this != V3_10;
        }
    }

    private final Clock clock;
    private final Version version;
    /** The parts; all but the thread are touched on the thread only. */
    final Channels channels;
    final Routing routing;
    final Queues queues;
    final DeadLettering deadLettering;
    final Deliveries deliveries;
    final DirectReplyTo directReplyTo;
    final ServerStreams streams;
    final ServerThread thread;

    public InProcessServer(Clock clock, Version version) {
        this.clock = clock;
        this.version = version;
        channels = new Channels(this);
        routing = new Routing(this);
        queues = new Queues(this);
        deadLettering = new DeadLettering(this);
        deliveries = new Deliveries(this);
        directReplyTo = new DirectReplyTo(this);
        streams = new ServerStreams(this);
        // Started last, when the parts its operations run on are in place.
        thread = new ServerThread(clock);
    }

    @Override
    public Clock clock() {
        return clock;
    }

    @Override
    public boolean clockPaused() {
        return clock instanceof VirtualClock;
    }

    public Version version() {
        return version;
    }

    /** Its streams, read as RabbitMQ's stream protocol reads them. */
    @Override
    public io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading streams() {
        return streams;
    }

    @Override
    public InProcessConnection connect() {
        return new InProcessConnection(this);
    }

    /** Stops the broker thread; what it held is gone, as with a server that stops without persistence. */
    @Override
    public void stop() {
        thread.stop();
    }

    /**
     * Waits until no operation is queued and every delivery has been settled, or fails after the timeout naming what
     * is still unsettled.
     */
    public void awaitIdle(Duration timeout) {
        thread.await(timeout, true);
    }

    /** Deliveries sent to consumers and not settled yet, on every channel. */
    public int unsettled() {
        return thread.unacked();
    }

    /** Waits until no operation is queued; deliveries may stay unsettled (a consumer holding them is quiet too). */
    public void awaitQuiet(Duration timeout) {
        thread.await(timeout, false);
    }

    /** Runs the operation on the broker thread and waits for its answer. */
    <T> T call(Callable<T> operation) throws BrokerException {
        return thread.call(operation);
    }

    /** Queues the operation for the broker thread, as a client's frame that expects no answer. */
    void post(Runnable operation) {
        thread.post(operation);
    }

    // ---- a channel's methods, each run on the broker thread: by InProcessChannel's call or post, or openChannel's --

    ServerChannel openChannel() throws BrokerException {
        return call(channels::open);
    }

    /**
     * Closes every channel as RabbitMQ's forced close of a connection does ({@code CONNECTION_FORCED}): consumers go,
     * unacked deliveries return to their queues, and each channel's owner hears the broker closed it.
     */
    public void closeEveryChannel(String why) throws BrokerException {
        call(() -> {
            channels.closeAll(new BrokerException(320, "CONNECTION_FORCED - " + why, null));
            return null;
        });
    }

    /** Closes the channel: its consumers go, its unacked deliveries return to their queues. */
    void closeChannel(ServerChannel channel, BrokerException reason) {
        channels.close(channel, reason);
    }

    QueueState declareQueue(ServerChannel channel, String name, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        return queues.declareQueue(channel, name, durable, exclusive, autoDelete, arguments);
    }

    QueueState declareQueuePassive(ServerChannel channel, String name) throws BrokerException {
        return queues.declareQueuePassive(channel, name);
    }

    int deleteQueue(ServerChannel channel, String name) throws BrokerException {
        return queues.deleteQueue(channel, name);
    }

    int purgeQueue(ServerChannel channel, String name) throws BrokerException {
        return queues.purgeQueue(channel, name);
    }

    void declareExchange(ServerChannel channel, String name, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws BrokerException {
        routing.declareExchange(channel, name, type, durable, autoDelete, arguments);
    }

    void declareExchangePassive(ServerChannel channel, String name) throws BrokerException {
        routing.declareExchangePassive(channel, name);
    }

    void deleteExchange(ServerChannel channel, String name) throws BrokerException {
        routing.deleteExchange(channel, name);
    }

    void bindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        routing.bindQueue(channel, queueName, exchangeName, routingKey, arguments);
    }

    void unbindQueue(ServerChannel channel, String queueName, String exchangeName, String routingKey,
            Map<String, Object> arguments) throws BrokerException {
        routing.unbindQueue(channel, queueName, exchangeName, routingKey, arguments);
    }

    void qos(ServerChannel channel, int prefetch) throws BrokerException {
        deliveries.qos(channel, prefetch);
    }

    String consume(ServerChannel channel, String queueName, boolean autoAck, DeliveryHandler handler,
            Map<String, Object> arguments) throws BrokerException {
        return deliveries.consume(channel, queueName, autoAck, handler, arguments);
    }

    void cancel(ServerChannel channel, String tag) throws BrokerException {
        deliveries.cancel(channel, tag);
    }

    Fetched get(ServerChannel channel, String queueName, boolean autoAck) throws BrokerException {
        return deliveries.get(channel, queueName, autoAck);
    }

    void ack(ServerChannel channel, long tag, boolean multiple) {
        deliveries.ack(channel, tag, multiple);
    }

    void reject(ServerChannel channel, long tag, boolean requeue) {
        deliveries.reject(channel, tag, requeue);
    }

    void publish(ServerChannel channel, long sequenceNumber, String exchangeName, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body) {
        routing.publish(channel, sequenceNumber, exchangeName, routingKey, mandatory, properties, body);
    }

    /**
     * A broker fault, for tests: the queue's consumers of now stop getting their deliveries while the queue still
     * hands them out (unacked, up to each one's prefetch), as a quorum queue's consumer has after its leader moved.
     * What they were handed goes back only with their channel; a consumer made later is not touched.
     */
    public void loseDeliveries(String queueName) throws BrokerException {
        call(() -> {
            for (ServerConsumer consumer : queues.lookup(queueName).consumers) {
                consumer.losesDeliveries = true;
            }
            return null;
        });
    }

    // ---- inspection, for the test API -------------------------------------------------------------------------

    /** A message waiting in a queue, as the test API shows it. */
    public record Waiting(AMQP.BasicProperties properties, byte[] body) {
    }

    /** What waits in a queue, head first, without taking it. */
    public List<Waiting> waiting(String queueName) throws BrokerException {
        return call(() -> {
            ServerQueue queue = queues.lookup(queueName);
            queues.expireHead(queue);
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
            ServerQueue queue = queues.lookup(queueName);
            queues.expireHead(queue);
            int unsettled = 0;
            for (ServerConsumer consumer : queue.consumers) {
                unsettled += consumer.unacked;
            }
            return new QueueSnapshot(queue.name, queue.durable, Map.copyOf(queue.arguments), queue.ready.size(),
                    unsettled, queue.consumers.size());
        });
    }
}
