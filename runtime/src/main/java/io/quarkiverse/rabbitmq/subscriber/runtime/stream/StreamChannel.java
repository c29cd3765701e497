package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.OffsetEnvelope;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.StreamOffset;

/**
 * A stream subscription's channel: it reads the stream ({@link StreamReading}: RabbitMQ's stream protocol, or the
 * in-process broker), and is an AMQP channel for everything else (the copies and dead letters it publishes, the topology). The
 * settler settles on it as on a queue's
 * channel, and each settlement becomes what a log can take: an ack or a reject (a drop, a dead letter already
 * confirmed in its queue) marks the message settled, and the consumer stores the offset of the last message of the
 * settled run at the head ({@link SettledOffsets}) on the server, under its name. Nothing is ever requeued to a log: a
 * retry runs again in place before it is settled.
 */
public final class StreamChannel implements BrokerChannel {

    private static final Logger LOG = Logger.getLogger(StreamChannel.class);

    private final BrokerChannel amqp;
    private final StreamReading streams;
    private final String consumerName;
    private final boolean superStream;
    /** Whether it is the single active consumer of its name: a super stream's always, a stream's from RabbitMQ 3.11. */
    private final boolean singleActive;
    private final java.util.function.LongSupplier clockMillis;
    private final SettledOffsets offsets = new SettledOffsets();
    /** The streams (a super stream's partitions) this single active consumer is the active one of: only theirs are stored. */
    private final Set<String> active = ConcurrentHashMap.newKeySet();
    /**
     * Per stream read, the offset stored last, or before any, the one before the first message read: where a consumer
     * that starts again would resume.
     */
    private final Map<String, Long> positions = new ConcurrentHashMap<>();
    private volatile StreamReading.Reader reader;
    /** Told when the stream read was deleted, as when the broker closes the AMQP channel. */
    private final List<java.util.function.Consumer<BrokerException>> closeListeners = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param amqp the AMQP channel its copies and dead letters leave on
     * @param streams where the stream is read: RabbitMQ's stream protocol, or the in-process broker
     * @param consumerName the name the consumer stores its offset under
     * @param superStream whether the subscription's queue is a super stream: its partitions are read
     * @param singleActive whether a stream is read as the single active consumer of the name (RabbitMQ 3.11 and
     *        later): one instance at a time reads it; a super stream's partitions always are
     * @param clockMillis the runtime's clock, for an {@code ago:} offset
     */
    public StreamChannel(BrokerChannel amqp, StreamReading streams, String consumerName, boolean superStream,
            boolean singleActive, java.util.function.LongSupplier clockMillis) {
        this.amqp = amqp;
        this.streams = streams;
        this.consumerName = consumerName;
        this.superStream = superStream;
        this.singleActive = superStream || singleActive;
        this.clockMillis = clockMillis;
    }

    @Override
    public String consume(String stream, DeliveryHandler handler) throws IOException {
        return consume(stream, handler, Map.of());
    }

    @Override
    public String consume(String stream, DeliveryHandler handler, Map<String, Object> arguments) throws IOException {
        Object spec = arguments.get(StreamOffset.ARGUMENT);
        StreamOffset start = StreamOffset.parse(spec == null ? StreamOffset.DEFAULT : spec.toString());
        StreamFilter filter = new StreamFilter(arguments.get(StreamOffset.FILTER_ARGUMENT) instanceof List<?> values
                ? Set.copyOf(values.stream().map(String::valueOf).toList())
                : Set.of());
        String tag = "stream-" + consumerName + "-" + stream;
        StreamReading.Handler messages = new StreamReading.Handler() {
            /** The stream whose position is known to be recorded: a lookup per stream read, not per message. */
            private volatile String positioned;

            @Override
            public void message(String read, long offset, AMQP.BasicProperties properties, byte[] body,
                    String filterValue, Runnable processed) {
                if (!filter.matches(filterValue)) {
                    // Another value's, let through by the Bloom filter: never handed out, so never settled.
                    processed.run();
                    return;
                }
                if (!read.equals(positioned)) {
                    // Once per stream read: putIfAbsent would lock the map's bin for every message.
                    if (!positions.containsKey(read)) {
                        positions.put(read, offset - 1);
                    }
                    positioned = read;
                }
                handler.delivered(tag, new OffsetEnvelope(offsets.arrived(read, offset, processed), read, offset),
                        properties, body);
            }

            @Override
            public void activity(String partition, boolean nowActive) {
                if (nowActive) {
                    active.add(partition);
                } else {
                    active.remove(partition);
                    // Another consumer stores its offsets now: this one's would be old news when it is active again.
                    positions.remove(partition);
                    positioned = null;
                    if (reader != null) {
                        checkStillThere(partition);
                    }
                }
                if (reader != null || nowActive) {
                    // Not when this consumer closes (a stop, a loss): the partitions go with it, said elsewhere.
                    LOG.infof("Consumer '%s' is %s the active consumer of %s", consumerName,
                            nowActive ? "now" : "no longer", superStream ? "partition '" + partition
                                    + "' of super stream '" + stream + "'" : "stream '" + stream + "'");
                }
            }
        };
        reader = superStream
                ? streams.readSuperStream(stream, consumerName, StreamOffsets.start(start, clockMillis.getAsLong()),
                        filter.values(), messages)
                : streams.read(stream, consumerName, StreamOffsets.start(start, clockMillis.getAsLong()),
                        filter.values(), singleActive, messages);
        return tag;
    }

    /**
     * A stream this consumer stopped being the active consumer of while it reads: another consumer took it, the
     * connection was lost (the client recovers it), or the stream was deleted, after which the client closes the
     * consumer without a word. Asked of the server off the client's thread; a deleted stream is reported as the
     * channel's loss, so the subscriber's supervisor attaches again (declaring the stream again where the extension
     * declares topology) instead of reading nothing for ever.
     */
    private void checkStillThere(String stream) {
        StreamReading.Reader current = reader;
        java.util.concurrent.CompletableFuture.runAsync(() -> {
            boolean gone;
            try {
                gone = !current.exists(stream);
            } catch (RuntimeException e) {
                return;
            }
            if (gone && reader == current) {
                BrokerException deleted = new BrokerException(BrokerException.NOT_FOUND, "NOT_FOUND - stream '"
                        + stream + "' was deleted while consumer '" + consumerName + "' read it", null);
                closeListeners.forEach(listener -> listener.accept(deleted));
            }
        }, java.util.concurrent.CompletableFuture.delayedExecutor(500, java.util.concurrent.TimeUnit.MILLISECONDS));
    }

    /**
     * How many messages of {@code stream} (the stream read, or a partition of the super stream) are past where this
     * consumer would resume (the last offset it stored): NaN while it does not read it (not the partition's active
     * consumer, not consuming), 0 before it read any message of it. Short by at most a chunk (see
     * {@link StreamReading.Reader#lastOffset}); asks the server.
     */
    public double lag(String stream) {
        StreamReading.Reader current = reader;
        if (current == null || singleActive && !active.contains(stream)) {
            return Double.NaN;
        }
        Long position = positions.get(stream);
        if (position == null) {
            return 0;
        }
        try {
            return Math.max(0, current.lastOffset(stream) - position);
        } catch (RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * Why this consumer reads nothing although it was not stopped (its connection is lost and being recovered by the
     * stream client), or null: it reads, stands by for another instance, or is not reading at all (which the
     * subscriber's supervisor says). Asks the server.
     */
    public String notReadingBecause() {
        StreamReading.Reader current = reader;
        if (current == null) {
            return null;
        }
        try {
            return current.notReadingBecause();
        } catch (RuntimeException e) {
            return "consumer '" + consumerName + "' could not be asked (" + e + ")";
        }
    }

    /**
     * The partitions of its super stream this consumer is the active one of, sorted; for a stream read as a single
     * active consumer, the stream while it is the active one; empty otherwise.
     */
    public List<String> activePartitions() {
        return active.stream().sorted().toList();
    }

    @Override
    public void ack(long deliveryTag, boolean multiple) {
        offsets.settled(deliveryTag, multiple, this::store);
    }

    @Override
    public void reject(long deliveryTag, boolean requeue) {
        if (requeue) {
            // The plan never requeues a stream's message (its retries run in place); were one asked for, the message
            // stays unsettled: the stored offset stops before it, and a consumer that starts again reads it again.
            LOG.warnf("A requeue of stream message %d was asked for: a log cannot take a message back; it stays "
                    + "unsettled, and is read again when the consumer '%s' starts again", deliveryTag, consumerName);
            return;
        }
        offsets.settled(deliveryTag, false, this::store);
    }

    private void store(String stream, long offset) {
        StreamReading.Reader current = reader;
        if (current == null || singleActive && !active.contains(stream)) {
            // A partition another consumer took over: it resumed after the offset stored when it did, and stores its
            // own from then on; what this one still settles of it was read there again.
            return;
        }
        try {
            current.store(stream, offset);
            positions.put(stream, offset);
        } catch (RuntimeException e) {
            // Closed, or its connection lost: the next settlement stores a later offset; a consumer that starts
            // again before that re-reads from the last stored one.
            LOG.debugf("Could not store offset %d of '%s' for consumer '%s' (%s)", offset, stream, consumerName,
                    e.toString());
        }
    }

    @Override
    public void cancel(String tag) {
        closeConsumer();
    }

    @Override
    public void close() {
        closeConsumer();
        amqp.close();
    }

    private void closeConsumer() {
        StreamReading.Reader current = reader;
        reader = null;
        if (current != null) {
            current.close();
        }
        active.clear();
        positions.clear();
    }

    /** Prefetch bounds a queue's deliveries; a stream's are bounded by the client's credits. */
    @Override
    public void qos(int prefetch) {
    }

    @Override
    public QueueState declareQueue(String queue, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        return amqp.declareQueue(queue, durable, exclusive, autoDelete, arguments);
    }

    @Override
    public QueueState declareQueuePassive(String queue) throws IOException {
        return amqp.declareQueuePassive(queue);
    }

    @Override
    public void declareExchange(String exchange, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        amqp.declareExchange(exchange, type, durable, autoDelete, arguments);
    }

    @Override
    public void declareExchangePassive(String exchange) throws IOException {
        amqp.declareExchangePassive(exchange);
    }

    @Override
    public void bindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException {
        amqp.bindQueue(queue, exchange, routingKey, arguments);
    }

    @Override
    public String consumeAutoAck(String queue, DeliveryHandler handler) throws IOException {
        return amqp.consumeAutoAck(queue, handler);
    }

    @Override
    public Fetched get(String queue, boolean autoAck) throws IOException {
        return amqp.get(queue, autoAck);
    }

    @Override
    public void confirmSelect(PublishListener listener) throws IOException {
        amqp.confirmSelect(listener);
    }

    @Override
    public void listen(PublishListener listener) throws IOException {
        amqp.listen(listener);
    }

    @Override
    public long nextPublishSeqNo() {
        return amqp.nextPublishSeqNo();
    }

    @Override
    public void publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body) throws IOException {
        amqp.publish(exchange, routingKey, mandatory, properties, body);
    }

    @Override
    public int frameMax() {
        return amqp.frameMax();
    }

    @Override
    public boolean isOpen() {
        return amqp.isOpen();
    }

    @Override
    public void onBrokerClose(java.util.function.Consumer<BrokerException> listener) {
        closeListeners.add(listener);
        amqp.onBrokerClose(listener);
    }
}
