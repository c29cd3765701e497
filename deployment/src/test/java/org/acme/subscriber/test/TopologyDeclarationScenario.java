package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/** With declare-topology on (the default), each subscriber's queue is declared durable with its arguments. */
/** Run by {@link WireBasicsTest}, which calls each of its methods in one application with the others. */
interface TopologyDeclarationScenario {

    static final String CLASSIC = "t.topology.classic";
    static final String QUORUM = "t.topology.quorum";

    default void queuesAreDeclaredDurableWithTheirArguments() {
        RabbitAdmin.with(admin -> {
            assertTrue(admin.exists(CLASSIC));
            assertTrue(admin.exists(QUORUM));
            // Redeclaring with the same arguments succeeds; with others the broker refuses: that pins the arguments.
            try (RabbitAdmin probe = new RabbitAdmin()) {
                probe.declare(CLASSIC, null);
                probe.declare(QUORUM, Map.of("x-queue-type", "quorum", "x-delivery-limit", 4));
            }
            assertEquals(false, declares(QUORUM, Map.of("x-queue-type", "quorum")),
                    "the quorum queue must carry x-delivery-limit");
            assertEquals(false, declares(CLASSIC, Map.of("x-queue-type", "quorum")),
                    "the classic queue must be classic");
        });
    }

    private static boolean declares(String queue, Map<String, Object> arguments) throws Exception {
        try (RabbitAdmin probe = new RabbitAdmin()) {
            probe.declare(queue, arguments);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    public static class Handlers {
        @Subscriber(CLASSIC)
        Outcome classic(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = QUORUM, type = QueueType.QUORUM, deliveryLimit = 4)
        Outcome quorum(String body) {
            return Outcome.ack();
        }
    }
}
