package io.quarkiverse.rabbitmq.subscriber.testing.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessControls;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * The {@link InProcessBroker} a test injects: what it publishes and looks at, over the in-process broker's controls
 * (time, idleness), which the Dev UI shares.
 */
@Singleton
public class InProcessBrokerHandle implements InProcessBroker {

    @Inject
    BrokerSessions sessions;

    @Inject
    InProcessControls controls;

    @Inject
    Codecs codecs;

    /** The broker this handle publishes to and looks at; null until first used: the default broker. */
    private final String broker;
    private BrokerChannel channel;

    /** The bean: the default broker's. */
    public InProcessBrokerHandle() {
        this.broker = Broker.DEFAULT;
    }

    /** A named broker's view, sharing the bean's collaborators. */
    private InProcessBrokerHandle(InProcessBrokerHandle bean, String broker) {
        this.sessions = bean.sessions;
        this.controls = bean.controls;
        this.codecs = bean.codecs;
        this.broker = broker;
    }

    @Override
    public InProcessBroker broker(String name) {
        // Fails, naming it, for a broker that is not configured.
        sessions.of(name);
        return new InProcessBrokerHandle(this, name);
    }

    @Override
    public synchronized void publish(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        controls.server(broker);
        // As RabbitPublisher encodes it: the application's codecs first, then the built-ins.
        PayloadEncoder.Encoded encoded = codecs.encoder().encode(payload, null, null);
        Map<String, Object> sent = encoded.headersWith(headers);
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(UUID.randomUUID().toString())
                .contentType(encoded.contentType())
                .headers(sent.isEmpty() ? null : sent)
                .build();
        String destination = exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
        try {
            if (channel == null || !channel.isOpen()) {
                channel = sessions.of(broker).connection().createChannel();
            }
            if (!exchange.isEmpty()) {
                // A publish to a missing exchange only closes the channel, after the call has returned: asked first,
                // so the test hears of its mistake instead of losing the message.
                channel.declareExchangePassive(exchange);
            }
            channel.publish(exchange, routingKey, false, properties, encoded.body());
        } catch (BrokerException e) {
            if (e.replyCode() == BrokerException.NOT_FOUND) {
                throw new IllegalArgumentException("Cannot publish to " + destination + " on the in-process broker: "
                        + "no exchange '" + exchange + "' is declared", e);
            }
            throw new IllegalStateException("Cannot publish to " + destination + " on the in-process broker: "
                    + e.replyText(), e);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot publish to " + destination + " on the in-process broker", e);
        }
    }

    @Override
    public void advance(Duration duration) {
        controls.advance(duration);
    }

    @Override
    public void closeChannels() {
        controls.closeChannels(broker);
    }

    @Override
    public void awaitIdle() {
        controls.awaitIdle();
    }

    @Override
    public List<QueuedMessage> messages(String queue) {
        try {
            List<QueuedMessage> messages = new ArrayList<>();
            for (InProcessServer.Waiting waiting : controls.server(broker).waiting(queue)) {
                AMQP.BasicProperties properties = waiting.properties();
                Map<String, Object> headers = properties.getHeaders() == null ? Map.of()
                        : PlainHeaders.of(properties.getHeaders());
                messages.add(new QueuedMessage(waiting.body(), headers, PlainProperties.of(properties)));
            }
            return messages;
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public QueueView queue(String name) {
        try {
            InProcessServer.QueueSnapshot snapshot = controls.server(broker).snapshot(name);
            return new QueueView(snapshot.name(), snapshot.arguments(), snapshot.ready(), snapshot.unacked(),
                    snapshot.consumers());
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
