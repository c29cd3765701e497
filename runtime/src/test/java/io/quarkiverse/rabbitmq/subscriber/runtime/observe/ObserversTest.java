package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

/** An observer that throws never reaches consuming, settling or publishing; the others still see everything. */
class ObserversTest {

    final List<String> seen = new ArrayList<>();

    final Observer broken = new Observer() {
        @Override
        public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
            return new Observation() {
                @Override
                public void handlerReturned() {
                    throw new IllegalStateException("scope");
                }

                @Override
                public void settled(String outcome, String errorType) {
                    throw new IllegalArgumentException("a meter with other tag keys");
                }

                @Override
                public void propagate(Map<String, Object> headers) {
                    throw new UnsupportedOperationException("read-only");
                }
            };
        }

        @Override
        public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
            throw new IllegalStateException("no tracer");
        }

        @Override
        public void settled(String queue, String operation, long nanos) {
            throw new IllegalStateException("closed registry");
        }
    };

    final Observer recording = new Observer() {
        @Override
        public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
            seen.add("processing " + queue);
            return new Observation() {
                @Override
                public void handlerReturned() {
                    seen.add("returned");
                }

                @Override
                public void settled(String outcome, String errorType) {
                    seen.add("settled " + outcome);
                }

                @Override
                public void propagate(Map<String, Object> headers) {
                    headers.put("traceparent", "x");
                }
            };
        }

        @Override
        public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
            seen.add("publishing " + routingKey);
            return failure -> seen.add("published");
        }

        @Override
        public void settled(String queue, String operation, long nanos) {
            seen.add(operation);
        }
    };

    @Test
    void aThrowingObserverIsIgnored() {
        Observers observers = new Observers(List.of(broken, recording));
        Observation observation = observers.processing("orders", new AMQP.BasicProperties(), 3);
        observation.handlerReturned();
        Map<String, Object> headers = new HashMap<>();
        observation.propagate(headers);
        observation.settled(OutcomeCounters.ACK, null);
        observers.publishing("", "orders", headers).done(null);
        observers.settled("orders", "ack", 1);
        assertEquals(List.of("processing orders", "returned", "settled ack", "publishing orders", "published", "ack"),
                seen);
        assertEquals("x", headers.get("traceparent"));
    }

    @Test
    void noObserverCostsNothing() {
        assertFalse(Observers.NONE.active());
        assertSame(Observation.NONE, Observers.NONE.processing("q", new AMQP.BasicProperties(), 0));
        assertSame(PublishObservation.NONE, Observers.NONE.publishing("", "q", null));
    }
}
