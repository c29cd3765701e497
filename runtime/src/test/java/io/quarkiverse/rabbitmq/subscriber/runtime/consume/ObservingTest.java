package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observer;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/** The stage that begins each handled delivery's observation; no application. */
class ObservingTest {

    private final List<String> seen = new CopyOnWriteArrayList<>();
    private final Observers observers = new Observers(List.of(new Observer() {
        @Override
        public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
            seen.add("processing " + queue);
            return new Observation() {
                @Override
                public void handlerReturned() {
                    seen.add("returned");
                }
            };
        }

        @Override
        public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void settled(String queue, String operation, long nanos) {
        }
    }));

    @Test
    void theObservationBeginsBeforeTheHandlingAndEndsAfterWhateverItReturns() {
        InboundDelivery delivery = delivery(1);
        Object result = new Observing("q", observers, handled -> {
            seen.add("handling, observed: " + (handled.observation() != Observation.NONE));
            return Verdict.DUPLICATE;
        }).run(delivery);
        assertEquals(Verdict.DUPLICATE, result, "a duplicate the inbox acked without the handler is observed as well");
        assertEquals(List.of("processing q", "handling, observed: true", "returned"), seen);
    }

    @Test
    void aHandlingThatThrowsStillEndsItsObservation() {
        assertThrows(IllegalStateException.class, () -> new Observing("q", observers, handled -> {
            throw new IllegalStateException("a bug");
        }).run(delivery(2)));
        assertEquals(List.of("processing q", "returned"), seen);
    }
}
