package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions;

/**
 * The in-process broker's controls, when the broker session chose it: time passed on its virtual clock, waiting until
 * idle, channels closed. The Dev UI uses them, and so does the test artifact's {@code InProcessBroker}, which adds what
 * a test publishes and looks at.
 */
@Singleton
public class InProcessControls implements EmbeddedBroker.Controls {

    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** The default broker's session: what {@link #server()} is. */
    @Inject
    BrokerSession session;

    /** Every broker's session: each named broker has an in-process server of its own, all on one clock. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSessions sessions;

    /** The subscribers, whose supervisors' steps (holding back, consuming again) are part of being idle. */
    @Inject
    jakarta.enterprise.inject.Instance<io.quarkiverse.rabbitmq.subscriber.runtime.assemble.LiveSubscriptions> live;

    /** How many deliveries open batches hold for the clock. */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.assemble.DeliveryCounters counters;

    /** The in-process broker in use; fails, naming the broker the application uses, where it is another. */
    public InProcessServer server() {
        return server(session);
    }

    /** The in-process server of a broker by name ({@code Broker.DEFAULT} or a configured one). */
    public InProcessServer server(String broker) {
        return server(sessions.of(broker));
    }

    private static InProcessServer server(BrokerSession session) {
        // The broker is chosen with the first connection (an application without subscribers may not have one yet).
        BrokerConnection connection = session.connection();
        return (InProcessServer) session.embeddedBroker().orElseThrow(() -> new IllegalStateException("The in-process "
                + "broker is not in use" + (BrokerSessions.isDefault(session.name()) ? ""
                        : " for broker '"
                                + session.name() + "'")
                + ": set quarkus.rabbitmq-subscriber.broker=in-process (this application uses "
                + connection.describe() + ")"));
    }

    /** Every broker's in-process server: they share one clock. */
    private List<InProcessServer> servers() {
        return sessions.all().stream().map(InProcessControls::server).toList();
    }

    @Override
    public void advance(Duration duration) {
        List<InProcessServer> servers = servers();
        if (!(servers.get(0).clock() instanceof VirtualClock clock)) {
            throw new IllegalStateException("The in-process broker's clock is not paused "
                    + "(quarkus.rabbitmq-subscriber.in-process.clock=wall): time cannot be advanced");
        }
        clock.advance(duration, () -> awaitIdle(servers));
    }

    /** Closes every channel, as a broker that lost its connections would (unsettled deliveries go back). */
    public void closeChannels() {
        closeChannels(Broker.DEFAULT);
    }

    /** As {@link #closeChannels()}, on one broker's server. */
    public void closeChannels(String broker) {
        try {
            server(broker).closeEveryChannel("closed by InProcessBroker.closeChannels()");
        } catch (BrokerException e) {
            throw new IllegalStateException("Cannot close the in-process broker's channels: " + e.replyText(), e);
        }
    }

    @Override
    public void awaitIdle() {
        awaitIdle(servers());
    }

    /**
     * Idle: every server has nothing queued and every delivery settled (or waiting in a batch for the clock), and no
     * subscriber's supervisor has a step waiting (a consume again after holding back is broker work still to come), all
     * at once: looked at twice in a row, since a delivery on one server may publish to another (an output to another
     * broker) and a supervisor's step may consume again.
     */
    private void awaitIdle(List<InProcessServer> servers) {
        long deadline = System.nanoTime() + IDLE_TIMEOUT.toNanos();
        for (;;) {
            if (idle(servers) && idle(servers)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                long unsettled = servers.stream().mapToLong(InProcessServer::unsettled).sum();
                throw new IllegalStateException("The in-process broker is not idle after " + IDLE_TIMEOUT + ": "
                        + unsettled + " delivery(ies) unsettled (" + counters.inFlight().heldForClock()
                        + " of them waiting for the clock: in batches, or retried in place and behind such a retry)"
                        + (supervisorsIdle() ? "" : ", a subscriber's supervisor still has steps to run"));
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    private boolean idle(List<InProcessServer> servers) {
        for (InProcessServer server : servers) {
            if (!settled(server)) {
                return false;
            }
        }
        return supervisorsIdle();
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
}
