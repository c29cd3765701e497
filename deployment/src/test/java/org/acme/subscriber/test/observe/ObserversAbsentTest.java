package org.acme.subscriber.test.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observer;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.arc.Arc;
import io.quarkus.test.QuarkusUnitTest;

/** Without Micrometer and OpenTelemetry in the application, no observer is registered: the hooks are no-ops. */
@Tag("wire")
class ObserversAbsentTest {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.obs.absent").givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class));

    @Test
    void noObserverIsRegistered() {
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
