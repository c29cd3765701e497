package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/** JSON payloads of every shape a handler may declare: annotated types, arrays, generic collections, maps. */
/** Run by {@link InProcessBasicsTest}, which calls each of its methods in one application with the others. */
interface PayloadTypesScenario {

    private InProcessBroker broker() {
        return Scenarios.bean(InProcessBroker.class);
    }

    private Handlers handlers() {
        return Scenarios.bean(Handlers.class);
    }

    default void everyShapeDecodes() {
        broker().publish("p.annotated", new Refund(1));
        broker().publish("p.array", List.of(new Refund(2), new Refund(3)));
        broker().publish("p.ints", List.of(4, 5));
        broker().publish("p.list", Map.of("refunds", List.of(new Refund(6))));
        broker().publish("p.map", Map.of("a", new Refund(7)));
        broker().awaitIdle();
        assertEquals(new Refund(1), handlers().received.get("annotated"));
        assertEquals(List.of(new Refund(2), new Refund(3)), List.of((Refund[]) handlers().received.get("array")));
        assertEquals(9, java.util.Arrays.stream((int[]) handlers().received.get("ints")).sum());
        assertEquals(Map.of("refunds", List.of(new Refund(6))), handlers().received.get("list"));
        assertEquals(Map.of("a", new Refund(7)), handlers().received.get("map"));
    }

    @Target(ElementType.TYPE_USE)
    @Retention(RetentionPolicy.RUNTIME)
    public @interface Checked {
    }

    public record Refund(long id) {
    }

    public static class Handlers {
        final Map<String, Object> received = new ConcurrentHashMap<>();

        @Subscriber("p.annotated")
        void annotated(@Checked Refund refund) {
            received.put("annotated", refund);
        }

        @Subscriber("p.array")
        void array(Refund[] refunds) {
            received.put("array", refunds);
        }

        @Subscriber("p.ints")
        void ints(int[] numbers) {
            received.put("ints", numbers);
        }

        /** A List at the top is a batch handler's; inside a type it decodes from a JSON array. */
        @Subscriber("p.list")
        void list(Map<String, List<? extends Refund>> refunds) {
            received.put("list", refunds);
        }

        @Subscriber("p.map")
        void map(Map<String, Refund> refunds) {
            received.put("map", refunds);
        }
    }
}
