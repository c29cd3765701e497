package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * A handler's bean scope decides its instances, as for any CDI bean: a {@code @Dependent} handler gets a new instance
 * per delivery, destroyed after it (after its {@code Uni} completes); any other scope's one instance serves every
 * delivery (the runtime looks it up once).
 */
class HandlerBeanScopeTest {

    static final List<Object> dependentInstances = new CopyOnWriteArrayList<>();
    static final List<Object> dependentDestroyed = new CopyOnWriteArrayList<>();
    static final List<Object> sharedInstances = new CopyOnWriteArrayList<>();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(PerDelivery.class, Shared.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Test
    void aDependentHandlerGetsAnInstancePerDeliveryAndTheOthersOneForAll() {
        for (int i = 0; i < 3; i++) {
            broker.publish("t.scope.dependent", "m" + i);
            broker.publish("t.scope.shared", "m" + i);
        }
        broker.awaitIdle();
        assertEquals(3, Set.copyOf(dependentInstances).size(), "one instance per delivery: " + dependentInstances);
        assertEquals(Set.copyOf(dependentInstances), Set.copyOf(dependentDestroyed), "each destroyed after its delivery");
        assertEquals(3, sharedInstances.size());
        assertEquals(1, Set.copyOf(sharedInstances).size(), "one instance for every delivery: " + sharedInstances);
    }

    @Dependent
    public static class PerDelivery {
        @Subscriber("t.scope.dependent")
        Uni<Void> handle(String payload) {
            dependentInstances.add(this);
            return Uni.createFrom().voidItem();
        }

        @PreDestroy
        void destroyed() {
            dependentDestroyed.add(this);
        }
    }

    @ApplicationScoped
    public static class Shared {
        @Subscriber("t.scope.shared")
        void handle(String payload) {
            sharedInstances.add(this);
        }
    }
}
