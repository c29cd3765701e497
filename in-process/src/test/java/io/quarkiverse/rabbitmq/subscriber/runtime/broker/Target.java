package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.Callable;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * A broker a conformance scenario runs against. Waiting differs and nothing else: on the real server a condition is
 * polled until a deadline and time passes by itself; on the in-process broker the scenario waits until the broker is
 * idle and then the condition must hold, and time passes only when the scenario lets it.
 */
abstract class Target implements AutoCloseable {

    abstract String name();

    abstract BrokerConnection connect() throws Exception;

    /** Waits until the condition holds. */
    abstract void await(Callable<Boolean> condition) throws Exception;

    /** Lets {@code duration} pass, checking that the condition holds all along. */
    abstract void holdsFor(Duration duration, Callable<Boolean> condition) throws Exception;

    /** Lets {@code duration} pass (on the real server it passes by itself while the next wait polls). */
    abstract void elapse(Duration duration);

    @Override
    public void close() {
    }

    static final class Real extends Target {
        static final String URL = WireBroker.URL;
        /** The in-process broker's mode that emulates the broker under test. */
        static final InProcessServer.Version EMULATED = WireBroker.isRabbitMq43() ? InProcessServer.Version.V4_3
                : WireBroker.isRabbitMq4() ? InProcessServer.Version.V4 : InProcessServer.Version.V3_10;

        @Override
        String name() {
            return WireBroker.name();
        }

        @Override
        BrokerConnection connect() {
            return BrokerConnector.connect(BrokerAddress.resolve(java.util.Optional.of(URL), null), "conformance", true);
        }

        @Override
        void await(Callable<Boolean> condition) {
            org.awaitility.Awaitility.await(name()).atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                    .until(condition);
        }

        @Override
        void holdsFor(Duration duration, Callable<Boolean> condition) {
            org.awaitility.Awaitility.await().during(duration).atMost(duration.plusSeconds(5))
                    .pollInterval(Duration.ofMillis(20)).until(condition);
        }

        @Override
        void elapse(Duration duration) {
        }
    }

    static final class InProcess extends Target {
        final VirtualClock clock = new VirtualClock(1_700_000_000_000L);
        final InProcessServer server;

        InProcess(InProcessServer.Version version) {
            server = new InProcessServer(clock, version);
        }

        @Override
        String name() {
            return "in-process broker (" + server.version() + ")";
        }

        @Override
        BrokerConnection connect() {
            return server.connect();
        }

        private void idle() {
            server.awaitQuiet(Duration.ofSeconds(5));
        }

        @Override
        void await(Callable<Boolean> condition) throws Exception {
            idle();
            // Deliveries are handed to consumers on the broker thread: what they record is complete once it is idle,
            // but a consumer may still hold its deliveries unacked, so poll briefly too.
            org.awaitility.Awaitility.await(name()).atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(5))
                    .until(condition);
        }

        @Override
        void holdsFor(Duration duration, Callable<Boolean> condition) throws Exception {
            idle();
            assertTrue(condition.call(), "the condition must hold before the time passes");
            clock.advance(duration.minusMillis(1), this::idle);
            assertTrue(condition.call(), "the condition must still hold");
            clock.advance(Duration.ofMillis(1), this::idle);
        }

        @Override
        void elapse(Duration duration) {
            idle();
            clock.advance(duration, this::idle);
        }

        @Override
        public void close() {
            server.stop();
        }
    }
}
