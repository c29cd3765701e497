package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.EmbeddedBroker;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.ServerVersion;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Starts the in-process broker for the runtime ({@code broker=in-process}, or dev mode's fallback): registered with
 * {@link java.util.ServiceLoader}, so that the runtime finds it only where this artifact is on the class path.
 */
public final class InProcessBrokers implements EmbeddedBroker.Factory {

    @Override
    public Clock clock(boolean paused, Clock wallClock) {
        return paused ? new VirtualClock(System.currentTimeMillis()) : wallClock;
    }

    @Override
    public EmbeddedBroker start(Clock clock, String serverVersion) {
        return new InProcessServer(clock, emulated(serverVersion));
    }

    /** The version {@code quarkus.rabbitmq-subscriber.in-process.server-version} names. */
    static InProcessServer.Version emulated(String version) {
        InProcessServer.Version emulated = ServerVersion.of(version).atLeast(4, 3) && ServerVersion.of(version).known()
                ? InProcessServer.Version.V4_3
                : version.equals("4") || version.startsWith("4.") ? InProcessServer.Version.V4
                        : version.equals("3.10") ? InProcessServer.Version.V3_10 : null;
        if (emulated == null) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.in-process.server-version=" + version
                    + " is not supported: use 3.10, 4 (4.0) or 4.3");
        }
        return emulated;
    }
}
