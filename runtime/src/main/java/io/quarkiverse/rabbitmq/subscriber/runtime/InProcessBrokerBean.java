package io.quarkiverse.rabbitmq.subscriber.runtime;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainProperties;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;

/**
 * The test API over the in-process broker, when the broker session chose it. It implements the deprecated first name
 * too (which extends the testing package's), so that both inject this one bean.
 */
@Singleton
@SuppressWarnings("removal")
public class InProcessBrokerBean implements io.quarkiverse.rabbitmq.subscriber.InProcessBroker {

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    BrokerSession session;

    @Inject
    ObjectMapper objectMapper;

    /** The subscribers, whose supervisors' steps (holding back, consuming again) are part of being idle. */
    @Inject
    jakarta.enterprise.inject.Instance<io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions> live;

    /** How many deliveries open batches hold for the clock. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters counters;

    private BrokerChannel channel;

    private InProcessServer server() {
        // The broker is chosen with the first connection (an application without subscribers may not have one yet).
        BrokerConnection connection = session.connection();
        return session.inProcessServer().orElseThrow(() -> new IllegalStateException("The in-process broker is not in "
                + "use: set quarkus.rabbitmq-subscriber.broker=in-process (this application uses "
                + connection.describe() + ")"));
    }

    @Override
    public synchronized void publish(String exchange, String routingKey, Object payload, Map<String, Object> headers) {
        server();
        PayloadEncoder encoder = new PayloadEncoder(objectMapper);
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder()
                .messageId(UUID.randomUUID().toString())
                .contentType(PayloadEncoder.isJson(payload) ? "application/json" : null)
                .headers(headers.isEmpty() ? null : headers)
                .build();
        String destination = exchange.isEmpty() ? "queue '" + routingKey + "'"
                : "exchange '" + exchange + "' with routing key '" + routingKey + "'";
        try {
            if (channel == null || !channel.isOpen()) {
                channel = session.connection().createChannel();
            }
            if (!exchange.isEmpty()) {
                // A publish to a missing exchange only closes the channel, after the call has returned: asked first,
                // so the test hears of its mistake instead of losing the message.
                channel.declareExchangePassive(exchange);
            }
            channel.publish(exchange, routingKey, false, properties, encoder.encode(payload));
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
        InProcessServer server = server();
        if (!(server.clock() instanceof VirtualClock clock)) {
            throw new IllegalStateException("The in-process broker's clock is not paused "
                    + "(quarkus.rabbitmq-subscriber.in-process.clock=wall): time cannot be advanced");
        }
        clock.advance(duration, () -> awaitIdle(server));
    }

    @Override
    public void closeChannels() {
        try {
            server().closeEveryChannel("closed by InProcessBroker.closeChannels()");
        } catch (BrokerException e) {
            throw new IllegalStateException("Cannot close the in-process broker's channels: " + e.replyText(), e);
        }
    }

    @Override
    public void awaitIdle() {
        awaitIdle(server());
    }

    /**
     * Idle: the broker has nothing queued and every delivery is settled (or waits in a batch for the clock), and no
     * subscriber's supervisor has a step
     * waiting (a consume again after holding back is broker work still to come), both at once.
     */
    private void awaitIdle(InProcessServer server) {
        long deadline = System.nanoTime() + IDLE_TIMEOUT.toNanos();
        for (;;) {
            if (settled(server) && supervisorsIdle() && settled(server) && supervisorsIdle()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The in-process broker is not idle after " + IDLE_TIMEOUT + ": "
                        + server.unsettled() + " delivery(ies) unsettled (" + counters.inFlight().heldForClock()
                        + " of them waiting for the clock: in batches, or retried in place and behind such a retry)"
                        + (supervisorsIdle() ? "" : ", a subscriber's supervisor still has steps to run"));
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Nothing queued and every delivery settled, or held by an open batch until its maxWait passes on the virtual
     * clock (only an {@link #advance} moves those on).
     */
    private boolean settled(InProcessServer server) {
        // Not a blocking wait for every settlement: a delivery on its way may join a batch that waits for the clock.
        server.awaitQuiet(IDLE_TIMEOUT);
        return server.unsettled() <= counters.inFlight().heldForClock();
    }

    private boolean supervisorsIdle() {
        if (!live.isResolvable()) {
            return true;
        }
        for (var state : live.get().all()) {
            if (state.supervisor() != null && !state.supervisor().idle()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public List<QueuedMessage> messages(String queue) {
        try {
            List<QueuedMessage> messages = new ArrayList<>();
            for (InProcessServer.Waiting waiting : server().waiting(queue)) {
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
            InProcessServer.QueueSnapshot snapshot = server().snapshot(name);
            return new QueueView(snapshot.name(), snapshot.arguments(), snapshot.ready(), snapshot.unacked(),
                    snapshot.consumers());
        } catch (IOException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
