package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.time.Duration;
import java.util.Optional;
import java.util.ServiceLoader;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * A broker that runs inside the application: what {@code broker=in-process} (or dev mode's fallback) connects to. The
 * runtime knows it only through this interface, so that a production application does not carry one: the in-process
 * broker comes with its own artifact ({@code quarkus-rabbitmq-subscriber-in-process}), which dev mode adds and the test
 * artifact ({@code quarkus-test-rabbitmq-subscriber}) brings to tests, and which registers its {@link Factory} with
 * {@link ServiceLoader}.
 */
public interface EmbeddedBroker {

    /** A new connection to it. */
    BrokerConnection connect();

    /** Its clock, which the runtime's own timers (a delay held in the service) use too. */
    Clock clock();

    /** Its streams ({@code x-queue-type=stream}), read as RabbitMQ's stream protocol reads them. */
    StreamReading streams();

    /** Whether its clock is paused: time passes only when a test (or the Dev UI) advances it. */
    boolean clockPaused();

    void stop();

    /** Starts an embedded broker; found with {@link ServiceLoader}. */
    interface Factory {

        /**
         * The clock in-process brokers run on: one for all of an application's brokers, so that one advance moves
         * every one of them.
         *
         * @param paused a virtual clock that moves only when advanced, else the wall clock
         * @param wallClock the wall clock, when the clock is not paused
         */
        Clock clock(boolean paused, Clock wallClock);

        /**
         * @param clock from {@link #clock}
         * @param serverVersion the RabbitMQ version whose behaviour it follows ({@code in-process.server-version})
         */
        EmbeddedBroker start(Clock clock, String serverVersion);
    }

    /**
     * Starts an embedded broker of the artifact on the class path.
     *
     * @throws IllegalStateException naming the artifact to add when none is there (a production application that
     *         chose {@code broker=in-process})
     */
    static EmbeddedBroker start(Clock clock, String serverVersion) {
        return required().start(clock, serverVersion);
    }

    /** The clock for the in-process brokers (see {@link Factory#clock}); fails as {@link #start} does. */
    static Clock clock(boolean paused, Clock wallClock) {
        return required().clock(paused, wallClock);
    }

    private static Factory required() {
        return factory().orElseThrow(() -> new IllegalStateException("The in-process broker is not on the class path: "
                + "a production build does not carry it. It comes with dev mode, and with io.quarkiverse.rabbitmq-subscriber:"
                + "quarkus-test-rabbitmq-subscriber in test scope; set quarkus.rabbitmq-subscriber.url (or broker=rabbitmq) "
                + "to use RabbitMQ"));
    }

    /** Whether an embedded broker can start here (its artifact is on the class path). */
    static boolean available() {
        return factory().isPresent();
    }

    /** The factory the in-process broker's artifact registers, looked up on the application's class loader. */
    private static Optional<Factory> factory() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return ServiceLoader.load(Factory.class, loader != null ? loader : EmbeddedBroker.class.getClassLoader())
                .findFirst();
    }

    /**
     * What the Dev UI (and the test artifact's handle) do with an embedded broker: let virtual time pass and wait until
     * every delivery that can happen has been settled. A bean of the in-process broker's artifact.
     */
    interface Controls {

        void advance(Duration duration);

        void awaitIdle();
    }
}
