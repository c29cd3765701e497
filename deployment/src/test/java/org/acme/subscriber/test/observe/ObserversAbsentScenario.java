package org.acme.subscriber.test.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observer;
import io.quarkus.arc.Arc;

/** Without Micrometer and OpenTelemetry in the application, no observer is registered: the hooks are no-ops. */
/**
 * Run by {@link org.acme.subscriber.test.WireBasicsTest}, which calls each of its methods in one application with the others.
 */
public interface ObserversAbsentScenario {

    default void noObserverIsRegistered() {
        assertEquals(0, Arc.container().select(Observer.class, jakarta.enterprise.inject.Any.Literal.INSTANCE).stream()
                .count());
        assertFalse(Arc.container().instance(ApplicationObservers.class).get().get().active());
    }

    public static class Handler {
        @Subscriber("t.obs.absent")
        void handle(String body) {
        }
    }
}
