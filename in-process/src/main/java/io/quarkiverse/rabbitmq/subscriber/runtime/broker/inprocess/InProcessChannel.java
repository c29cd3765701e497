package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;

/**
 * A client channel of the in-process broker. Methods with a reply wait for the broker thread; ack, reject and publish
 * only queue their frame, as amqp-client writes them without waiting.
 */
final class InProcessChannel implements AdminChannel {

    private final InProcessServer server;
    private final ServerChannel state;
    /** Client-side, as amqp-client counts it: the number a publish gets is known before the broker sees it. */
    private final AtomicLong nextPublishSeqNo = new AtomicLong(0);

    private final java.util.function.Consumer<InProcessChannel> onClose;

    InProcessChannel(InProcessServer server, ServerChannel state, java.util.function.Consumer<InProcessChannel> onClose) {
        this.server = server;
        this.state = state;
        this.onClose = onClose;
    }

    @Override
    public QueueState declareQueue(String queue, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        return server.call(() -> server.declareQueue(state, queue, durable, exclusive, autoDelete, arguments));
    }

    @Override
    public QueueState declareQueuePassive(String queue) throws IOException {
        return server.call(() -> server.declareQueuePassive(state, queue));
    }

    @Override
    public int deleteQueue(String queue) throws IOException {
        return server.call(() -> server.deleteQueue(state, queue));
    }

    @Override
    public int purgeQueue(String queue) throws IOException {
        return server.call(() -> server.purgeQueue(state, queue));
    }

    @Override
    public void declareExchange(String exchange, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        server.call(() -> {
            server.declareExchange(state, exchange, type, durable, autoDelete, arguments);
            return null;
        });
    }

    @Override
    public void declareExchangePassive(String exchange) throws IOException {
        server.call(() -> {
            server.declareExchangePassive(state, exchange);
            return null;
        });
    }

    @Override
    public void deleteExchange(String exchange) throws IOException {
        server.call(() -> {
            server.deleteExchange(state, exchange);
            return null;
        });
    }

    @Override
    public void bindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException {
        server.call(() -> {
            server.bindQueue(state, queue, exchange, routingKey, arguments);
            return null;
        });
    }

    @Override
    public void unbindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException {
        server.call(() -> {
            server.unbindQueue(state, queue, exchange, routingKey, arguments);
            return null;
        });
    }

    @Override
    public void qos(int prefetch) throws IOException {
        server.call(() -> {
            server.qos(state, prefetch);
            return null;
        });
    }

    @Override
    public String consume(String queue, DeliveryHandler handler) throws IOException {
        return consume(queue, handler, Map.of());
    }

    @Override
    public String consume(String queue, DeliveryHandler handler, Map<String, Object> arguments) throws IOException {
        return server.call(() -> server.consume(state, queue, false, handler, arguments));
    }

    @Override
    public String consumeAutoAck(String queue, DeliveryHandler handler) throws IOException {
        return server.call(() -> server.consume(state, queue, true, handler, Map.of()));
    }

    @Override
    public void cancel(String consumerTag) throws IOException {
        server.call(() -> {
            server.cancel(state, consumerTag);
            return null;
        });
    }

    @Override
    public void ack(long deliveryTag, boolean multiple) throws IOException {
        server.post(() -> server.ack(state, deliveryTag, multiple));
    }

    @Override
    public void reject(long deliveryTag, boolean requeue) throws IOException {
        server.post(() -> server.reject(state, deliveryTag, requeue));
    }

    @Override
    public Fetched get(String queue, boolean autoAck) throws IOException {
        return server.call(() -> server.get(state, queue, autoAck));
    }

    @Override
    public void onBrokerClose(java.util.function.Consumer<BrokerException> listener) {
        try {
            server.call(() -> {
                state.brokerCloseListener = listener;
                return null;
            });
        } catch (BrokerException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void confirmSelect(PublishListener listener) throws IOException {
        server.call(() -> {
            state.listener = listener;
            state.confirming = true;
            return null;
        });
        nextPublishSeqNo.compareAndSet(0, 1);
    }

    @Override
    public void listen(PublishListener listener) throws IOException {
        server.call(() -> {
            state.listener = listener;
            return null;
        });
    }

    @Override
    public long nextPublishSeqNo() {
        return nextPublishSeqNo.get();
    }

    @Override
    public void publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body) throws IOException {
        state.ensureOpen();
        // Refused on the caller's thread before anything is numbered or sent, as the real broker's client channel does.
        ContentHeaders.check(properties, body.length, frameMax());
        // Encoded here, on the caller's thread, as amqp-client does: a header AMQP cannot carry fails the caller.
        AMQP.BasicProperties sent = WireProperties.roundTrip(properties == null ? new AMQP.BasicProperties() : properties);
        long sequenceNumber = nextPublishSeqNo.get() > 0 ? nextPublishSeqNo.getAndIncrement() : 0;
        byte[] copy = body.clone();
        server.post(() -> server.publish(state, sequenceNumber, exchange, routingKey, mandatory, sent, copy));
    }

    /** As RabbitMQ's default, which a client asking for none gets. */
    @Override
    public int frameMax() {
        return ContentHeaders.RABBITMQ_FRAME_MAX;
    }

    @Override
    public boolean isOpen() {
        return state.open;
    }

    @Override
    public void close() {
        onClose.accept(this);
        try {
            server.call(() -> {
                server.closeChannel(state, null);
                return null;
            });
        } catch (BrokerException | RuntimeException ignored) {
            // closing is best effort, as on a real connection
        }
    }
}
