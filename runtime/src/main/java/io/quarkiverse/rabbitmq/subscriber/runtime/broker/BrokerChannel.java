package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.IOException;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/**
 * An AMQP 0-9-1 channel, reduced to the methods the engine, the publisher and the dead-letter tools use; what only
 * tests and tools need (deleting, purging, unbinding) is on {@link AdminChannel}. A method the server refuses throws
 * {@link BrokerException} with the server's reply code and text, and (as on a real server) the channel is closed
 * afterwards.
 */
public interface BrokerChannel extends AutoCloseable {

    /**
     * RabbitMQ's direct reply-to pseudo-queue. A channel that consumes it ({@link #consumeAutoAck} only: the server
     * refuses a consumer that would ack) may publish requests with this reply-to; the server rewrites it into an
     * {@code amq.rabbitmq.reply-to.<token>} name, and a message published to that name through the default exchange
     * goes straight to the consumer, from any connection.
     */
    String DIRECT_REPLY_TO = "amq.rabbitmq.reply-to";

    QueueState declareQueue(String queue, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws IOException;

    /** Fails with NOT_FOUND (404) when the queue does not exist. */
    QueueState declareQueuePassive(String queue) throws IOException;

    void declareExchange(String exchange, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws IOException;

    /** Fails with NOT_FOUND (404) when the exchange does not exist. */
    void declareExchangePassive(String exchange) throws IOException;

    void bindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments) throws IOException;

    /** basic.qos for the consumers created on this channel afterwards; 0 is unlimited. */
    void qos(int prefetch) throws IOException;

    /** basic.consume with manual acknowledgements; returns the consumer tag. */
    String consume(String queue, DeliveryHandler handler) throws IOException;

    /**
     * basic.consume with manual acknowledgements and consumer arguments ({@code x-priority}, {@code x-consumer-timeout});
     * returns the consumer tag. The in-process broker takes them and, as RabbitMQ 3.10 does with the timeout, ignores
     * them.
     */
    default String consume(String queue, DeliveryHandler handler, java.util.Map<String, Object> arguments)
            throws IOException {
        return consume(queue, handler);
    }

    /**
     * basic.consume with {@code no-ack}: the server counts each delivery settled as it sends it, so a delivery is never
     * acked, and prefetch does not bound them; returns the consumer tag. The only way to consume
     * {@link #DIRECT_REPLY_TO}.
     */
    String consumeAutoAck(String queue, DeliveryHandler handler) throws IOException;

    void cancel(String consumerTag) throws IOException;

    /**
     * basic.get: takes the queue's head, or {@code null} when the queue is empty. Without {@code autoAck} the message
     * stays the channel's until it is acked or rejected, or the channel closes, which returns it to the queue.
     */
    Fetched get(String queue, boolean autoAck) throws IOException;

    void ack(long deliveryTag, boolean multiple) throws IOException;

    void reject(long deliveryTag, boolean requeue) throws IOException;

    /**
     * Puts the channel in confirm mode; acks, nacks and returns go to the listener. A channel has one publish listener,
     * given once, by this or {@link #listen}: the adapters differ for a second one (amqp-client adds it, the in-process
     * broker replaces the first), and the runtime never gives one.
     */
    void confirmSelect(PublishListener listener) throws IOException;

    /**
     * Returns of mandatory messages (and the channel's close) go to the listener, without confirm mode: for publishers
     * that wait for no confirm but must not lose an unroutable message.
     */
    void listen(PublishListener listener) throws IOException;

    /** The sequence number the next publish gets in confirm mode. */
    long nextPublishSeqNo();

    /**
     * Publishes a message. Throws {@link ContentHeaders.TooLargeHeaders} and sends nothing (the channel stays open, its
     * confirm numbering untouched) when the properties and headers do not fit one frame of {@link #frameMax()}.
     */
    void publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties, byte[] body)
            throws IOException;

    /** The connection's {@code frame_max}: the largest frame, so the largest properties and headers, it carries. */
    int frameMax();

    boolean isOpen();

    /**
     * Tells the listener when the broker closes this channel (a refused method, a consumer timeout). Not called when
     * the application closes it, nor when the connection is lost: amqp-client recovers connections itself. Given once
     * per channel, as the publish listener is.
     */
    void onBrokerClose(java.util.function.Consumer<BrokerException> listener);

    /** Closes the channel; its unsettled deliveries go back to their queues. Never throws. */
    @Override
    void close();
}
