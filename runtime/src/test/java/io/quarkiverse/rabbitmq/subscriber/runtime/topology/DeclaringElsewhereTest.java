package io.quarkiverse.rabbitmq.subscriber.runtime.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/** Startup's declaration, made again on another node when a node in a minority timed out writing it. */
class DeclaringElsewhereTest {

    static final String TIMED_OUT = "INTERNAL_ERROR - Could not declare queue 'orders' in vhost '/' on node "
            + "'rabbit@a' because the metadata store operation timed out";

    final List<String> calls = new ArrayList<>();
    boolean reopens = true;

    final DeclaringElsewhere.Reconnection reconnection = new DeclaringElsewhere.Reconnection() {
        @Override
        public boolean awaitOpen() {
            calls.add("await");
            return reopens;
        }

        @Override
        public String describe() {
            return "127.0.0.1:5712";
        }
    };

    /** Fails with a timeout the first {@code failures} times. */
    DeclaringElsewhere.Declaration timingOut(int failures) {
        return () -> {
            calls.add("declare");
            if (calls.stream().filter("declare"::equals).count() <= failures) {
                throw new IllegalStateException("Cannot declare queue 'orders'",
                        new BrokerException(541, TIMED_OUT, null));
            }
        };
    }

    @Test
    void declaresAgainOnceTheConnectionIsOpenElsewhere() throws Exception {
        DeclaringElsewhere.declare(timingOut(1), 3, reconnection);
        assertEquals(List.of("declare", "await", "declare"), calls);
    }

    @Test
    void atMostOncePerListedNode() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeclaringElsewhere.declare(timingOut(5), 3, reconnection));
        assertEquals(List.of("declare", "await", "declare", "await", "declare"), calls);
        assertTrue(e.getMessage().contains("3 nodes of quarkus.rabbitmq-subscriber.addresses in turn timed out"),
                e.getMessage());
        assertTrue(e.getMessage().contains("RabbitMQ node 'rabbit@a'"), e.getMessage());
    }

    @Test
    void aSingleBrokerSaysToListTheNodes() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeclaringElsewhere.declare(timingOut(1), 0, reconnection));
        assertEquals(List.of("declare"), calls);
        assertTrue(e.getMessage().contains("List every node of the cluster in quarkus.rabbitmq-subscriber.addresses"),
                e.getMessage());
    }

    @Test
    void aConnectionThatDoesNotReopenFails() {
        reopens = false;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeclaringElsewhere.declare(timingOut(1), 3, reconnection));
        assertTrue(e.getMessage().contains("did not open again in time"), e.getMessage());
    }

    @Test
    void anyOtherFailureIsNotRetried() {
        IllegalStateException refused = new IllegalStateException("Queue 'orders' exists with other arguments");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DeclaringElsewhere.declare(() -> {
            calls.add("declare");
            throw refused;
        }, 3, reconnection));
        assertSame(refused, e);
        assertEquals(List.of("declare"), calls);
    }
}
