package org.acme.subscriber.test.operate;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** {@code queues."<queue>".enabled=false}: the application starts without that subscriber; the others run. */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class DisabledSubscriberTest {

    static final String ON = "t.operate.on";
    static final String OFF = "t.operate.off";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ON, OFF).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"" + OFF + "\".enabled", "false")
            // An override for the disabled queue is no "override for no subscriber".
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"" + OFF + "\".max-attempts", "3");

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void theDisabledSubscriberIsNeitherDeclaredNorConsumed() throws Exception {
        assertEquals(List.of(ON), status.definitions().stream().map(definition -> definition.subscription.queue)
                .toList());
        RabbitAdmin.with(admin -> admin.publish(ON, "hello"));
        await().until(() -> handlers.received().size() == 1);
        // Never declared: a passive declaration fails.
        assertThrows(Exception.class, () -> RabbitAdmin.with(admin -> admin.depth(OFF)));
    }

    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(ON)
        void on(String body) {
            received.add(body);
        }

        @Subscriber(OFF)
        void off(String body) {
            received.add("off: " + body);
        }
    }
}
