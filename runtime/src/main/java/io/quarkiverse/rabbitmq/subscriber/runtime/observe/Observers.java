package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;

/** The observers the application has, as one; with none, every hook returns a shared no-op. */
public final class Observers implements Observer {

    public static final Observers NONE = new Observers(List.of());

    private final Observer[] observers;

    public Observers(List<? extends Observer> observers) {
        this.observers = observers.toArray(new Observer[0]);
    }

    /** False when nothing observes: callers may skip measuring. */
    public boolean active() {
        return observers.length > 0;
    }

    @Override
    public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
        if (observers.length == 0) {
            return Observation.NONE;
        }
        if (observers.length == 1) {
            return observers[0].processing(queue, properties, bodySize);
        }
        Observation[] each = new Observation[observers.length];
        for (int i = 0; i < observers.length; i++) {
            each[i] = observers[i].processing(queue, properties, bodySize);
        }
        return new Observation() {
            @Override
            public void handlerReturned() {
                // In reverse: the last one opened is the first closed.
                for (int i = each.length - 1; i >= 0; i--) {
                    each[i].handlerReturned();
                }
            }

            @Override
            public void settled(String outcome, String errorType) {
                for (Observation observation : each) {
                    observation.settled(outcome, errorType);
                }
            }

            @Override
            public void propagate(Map<String, Object> headers) {
                for (Observation observation : each) {
                    observation.propagate(headers);
                }
            }
        };
    }

    @Override
    public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
        if (observers.length == 0) {
            return PublishObservation.NONE;
        }
        if (observers.length == 1) {
            return observers[0].publishing(exchange, routingKey, headers);
        }
        PublishObservation[] each = new PublishObservation[observers.length];
        for (int i = 0; i < observers.length; i++) {
            each[i] = observers[i].publishing(exchange, routingKey, headers);
        }
        return failure -> {
            for (PublishObservation observation : each) {
                observation.done(failure);
            }
        };
    }

    @Override
    public void settled(String queue, String operation, long nanos) {
        for (Observer observer : observers) {
            observer.settled(queue, operation, nanos);
        }
    }

    @Override
    public void watch(List<String> queues, java.util.function.ToIntFunction<String> heldCopies,
            java.util.function.IntSupplier inFlight) {
        for (Observer observer : observers) {
            observer.watch(queues, heldCopies, inFlight);
        }
    }
}
