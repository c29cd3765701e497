package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;

import jakarta.inject.Inject;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * The base of the scenario suites that run on both brokers: messages are published and queues inspected through the
 * application's own broker connection, so a scenario reads the same on the real RabbitMQ and the in-process one.
 */
public abstract class BrokerScenarios {

    @Inject
    protected BrokerSession session;

    @Inject
    InProcessBroker inProcess;

    /**
     * Waits until the condition holds, or fails: on RabbitMQ for up to 20 s; on the in-process broker it lets the broker
     * settle everything that can happen now (its clock stays where it is), then the condition must hold.
     */
    protected void until(BooleanSupplier condition) {
        if (session.embeddedBroker().isPresent()) {
            inProcess.awaitIdle();
            assertTrue(condition.getAsBoolean(), "not so once the in-process broker is idle");
        } else {
            await().atMost(Duration.ofSeconds(20)).until(condition::getAsBoolean);
        }
    }

    protected void publish(String queue, String body) throws Exception {
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.publish("", queue, false, new AMQP.BasicProperties.Builder()
                    .messageId(UUID.randomUUID().toString()).contentType("text/plain").build(),
                    body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Publishes with properties of the test's choosing (a reply-to, a correlation id). */
    protected void publish(String queue, AMQP.BasicProperties properties, String body) throws Exception {
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.publish("", queue, false, properties, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Declares a durable classic queue no subscriber of the test consumes (where replies wait to be read). */
    protected void declare(String queue) {
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.declareQueue(queue, true, false, false, Map.of());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    protected int depth(String queue) {
        try (BrokerChannel channel = session.connection().createChannel()) {
            return channel.declareQueuePassive(queue).messageCount();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Takes every ready message off the queue. */
    protected List<Fetched> drain(String queue) throws Exception {
        List<Fetched> messages = new ArrayList<>();
        try (AdminChannel channel = AdminChannel.of(session.connection().createChannel())) {
            Fetched fetched;
            while ((fetched = channel.get(queue, true)) != null) {
                messages.add(fetched);
            }
        }
        return messages;
    }

    protected static String body(Fetched fetched) {
        return new String(fetched.body(), StandardCharsets.UTF_8);
    }

    protected static Object header(Fetched fetched, String name) {
        Map<String, Object> headers = fetched.properties().getHeaders();
        return headers == null ? null : headers.get(name);
    }
}
