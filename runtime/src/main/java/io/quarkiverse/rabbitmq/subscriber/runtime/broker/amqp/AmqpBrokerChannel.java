package io.quarkiverse.rabbitmq.subscriber.runtime.broker.amqp;

import java.io.IOException;
import java.util.Map;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.AlreadyClosedException;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConfirmListener;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.ShutdownSignalException;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ContentHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;

/** A channel of a real server: each method is the amqp-client call of the same name; refusals become BrokerException. */
final class AmqpBrokerChannel implements AdminChannel {

    private final Channel channel;

    AmqpBrokerChannel(Channel channel) {
        this.channel = channel;
        // RabbitMQ 4.3.6 keeps a quorum queue's consumer attached after cancelling it for a consumer timeout, and
        // delivers to it again once the channel has room: amqp-client has forgotten the tag by then and would close the
        // whole connection ("Unsolicited delivery"), cutting every subscriber's deliveries in flight. Such a delivery was
        // never handed to a handler: the consumer is cancelled again from this side, so the server stops, and the
        // delivery goes back with basic.nack, which 4.3 counts as a return, not a failure (measured on 4.3.6: one such
        // delivery, then none; the message is redelivered to the subscriber's new consumer).
        channel.setDefaultConsumer(new DefaultConsumer(channel) {
            @Override
            public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                    byte[] body) throws IOException {
                org.jboss.logging.Logger.getLogger(AmqpBrokerChannel.class).debugf(
                        "RabbitMQ delivered tag %d to consumer %s, which it had cancelled: cancelling it again and "
                                + "giving the delivery back",
                        envelope.getDeliveryTag(), consumerTag);
                getChannel().asyncRpc(new AMQP.Basic.Cancel.Builder().consumerTag(consumerTag).nowait(true).build());
                getChannel().basicNack(envelope.getDeliveryTag(), false, true);
            }
        });
    }

    @Override
    public QueueState declareQueue(String queue, boolean durable, boolean exclusive, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        try {
            AMQP.Queue.DeclareOk ok = channel.queueDeclare(queue, durable, exclusive, autoDelete, arguments);
            return new QueueState(ok.getQueue(), ok.getMessageCount(), ok.getConsumerCount());
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public QueueState declareQueuePassive(String queue) throws IOException {
        try {
            AMQP.Queue.DeclareOk ok = channel.queueDeclarePassive(queue);
            return new QueueState(ok.getQueue(), ok.getMessageCount(), ok.getConsumerCount());
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public int deleteQueue(String queue) throws IOException {
        try {
            return channel.queueDelete(queue).getMessageCount();
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public int purgeQueue(String queue) throws IOException {
        try {
            return channel.queuePurge(queue).getMessageCount();
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void declareExchange(String exchange, String type, boolean durable, boolean autoDelete,
            Map<String, Object> arguments) throws IOException {
        try {
            channel.exchangeDeclare(exchange, type, durable, autoDelete, arguments);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void declareExchangePassive(String exchange) throws IOException {
        try {
            channel.exchangeDeclarePassive(exchange);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void deleteExchange(String exchange) throws IOException {
        try {
            channel.exchangeDelete(exchange);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void bindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException {
        try {
            channel.queueBind(queue, exchange, routingKey, arguments);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void unbindQueue(String queue, String exchange, String routingKey, Map<String, Object> arguments)
            throws IOException {
        try {
            channel.queueUnbind(queue, exchange, routingKey, arguments);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void qos(int prefetch) throws IOException {
        channel.basicQos(prefetch);
    }

    @Override
    public String consume(String queue, DeliveryHandler handler) throws IOException {
        return consume(queue, false, handler, java.util.Map.of());
    }

    @Override
    public String consume(String queue, DeliveryHandler handler, java.util.Map<String, Object> arguments)
            throws IOException {
        return consume(queue, false, handler, arguments);
    }

    @Override
    public String consumeAutoAck(String queue, DeliveryHandler handler) throws IOException {
        return consume(queue, true, handler, java.util.Map.of());
    }

    private String consume(String queue, boolean autoAck, DeliveryHandler handler, java.util.Map<String, Object> arguments)
            throws IOException {
        try {
            return channel.basicConsume(queue, autoAck, arguments, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(String consumerTag, Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) {
                    handler.delivered(consumerTag, envelope, properties, body);
                }

                @Override
                public void handleCancel(String consumerTag) {
                    handler.cancelled();
                }
            });
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void cancel(String consumerTag) throws IOException {
        channel.basicCancel(consumerTag);
    }

    @Override
    public void ack(long deliveryTag, boolean multiple) throws IOException {
        channel.basicAck(deliveryTag, multiple);
    }

    @Override
    public void reject(long deliveryTag, boolean requeue) throws IOException {
        channel.basicReject(deliveryTag, requeue);
    }

    @Override
    public Fetched get(String queue, boolean autoAck) throws IOException {
        try {
            GetResponse response = channel.basicGet(queue, autoAck);
            return response == null ? null
                    : new Fetched(response.getEnvelope(), response.getProps(), response.getBody(),
                            response.getMessageCount());
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public void onBrokerClose(java.util.function.Consumer<BrokerException> listener) {
        channel.addShutdownListener(signal -> {
            if (!signal.isInitiatedByApplication() && !signal.isHardError()
                    && signal.getReason() instanceof AMQP.Channel.Close close) {
                listener.accept(new BrokerException(close.getReplyCode(), close.getReplyText(), signal));
            }
        });
    }

    @Override
    public void confirmSelect(PublishListener listener) throws IOException {
        listen(listener);
        channel.confirmSelect();
    }

    @Override
    public void listen(PublishListener listener) {
        channel.addShutdownListener(signal -> listener.closed(signal.getMessage()));
        channel.addReturnListener(returned -> listener.returned(returned.getReplyCode(), returned.getReplyText(),
                returned.getExchange(), returned.getRoutingKey(), returned.getProperties(), returned.getBody()));
        channel.addConfirmListener(new ConfirmListener() {
            @Override
            public void handleAck(long deliveryTag, boolean multiple) {
                listener.acked(deliveryTag, multiple);
            }

            @Override
            public void handleNack(long deliveryTag, boolean multiple) {
                listener.nacked(deliveryTag, multiple);
            }
        });
    }

    @Override
    public long nextPublishSeqNo() {
        return channel.getNextPublishSeqNo();
    }

    @Override
    public void publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
            byte[] body) throws IOException {
        // Before amqp-client takes a confirm sequence number for a publish it would then refuse.
        ContentHeaders.check(properties, body.length, channel.getConnection().getFrameMax());
        try {
            channel.basicPublish(exchange, routingKey, mandatory, properties, body);
        } catch (IOException | AlreadyClosedException e) {
            throw refusal(e);
        }
    }

    @Override
    public int frameMax() {
        return channel.getConnection().getFrameMax();
    }

    @Override
    public boolean isOpen() {
        return channel.isOpen();
    }

    @Override
    public void close() {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (Exception ignored) {
            // already closed by the server
        }
    }

    /** The server's channel.close reply code and text, out of amqp-client's wrapping. */
    private static BrokerException refusal(Exception e) {
        ShutdownSignalException signal = e instanceof ShutdownSignalException s ? s
                : e.getCause() instanceof ShutdownSignalException s ? s : null;
        if (signal != null && signal.getReason() instanceof AMQP.Channel.Close close) {
            return new BrokerException(close.getReplyCode(), close.getReplyText(), e);
        }
        if (signal != null && signal.getReason() instanceof AMQP.Connection.Close close) {
            return new BrokerException(close.getReplyCode(), close.getReplyText(), e);
        }
        return new BrokerException(0, e.toString(), e);
    }
}
