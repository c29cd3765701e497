package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import java.util.List;
import java.util.Map;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

/**
 * The observers the application has, as one; with none, every hook returns a shared no-op. Each call into an observer
 * is isolated: a metrics registry or tracer that throws is logged (once per observer and hook) and ignored, never
 * allowed into consuming, settling or publishing, where it would leave a delivery unsettled or settle it wrongly.
 */
public final class Observers implements Observer {

    private static final Logger LOG = Logger.getLogger(Observers.class);

    public static final Observers NONE = new Observers(List.of());

    private final Observer[] observers;
    /** Which observer hooks have thrown already: each is logged once. */
    private final java.util.Set<String> reported = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public Observers(List<? extends Observer> observers) {
        this.observers = observers.toArray(new Observer[0]);
    }

    /** False when nothing observes: callers may skip measuring. */
    public boolean active() {
        return observers.length > 0;
    }

    @Override
    public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
        return begin("processing", (observer, i) -> observer.processing(queue, properties, bodySize));
    }

    @Override
    public Observation processingBatch(String queue, List<AMQP.BasicProperties> items) {
        return begin("processingBatch", (observer, i) -> observer.processingBatch(queue, items));
    }

    /** @param batch what {@link #processingBatch} returned: each observer gets its own observation of the batch */
    @Override
    public Observation batchItem(String queue, AMQP.BasicProperties properties, int bodySize, Observation batch) {
        Observation[] batches = batch instanceof Combined combined ? combined.each : null;
        return begin("batchItem", (observer, i) -> observer.batchItem(queue, properties, bodySize,
                batches == null ? Observation.NONE : batches[i]));
    }

    /** Each observer's observation begun, as one; one that throws is logged once and observes nothing. */
    private Observation begin(String hook, java.util.function.BiFunction<Observer, Integer, Observation> begin) {
        if (observers.length == 0) {
            return Observation.NONE;
        }
        Observation[] each = new Observation[observers.length];
        for (int i = 0; i < observers.length; i++) {
            try {
                each[i] = begin.apply(observers[i], i);
            } catch (RuntimeException e) {
                failed(observers[i], hook, e);
                each[i] = Observation.NONE;
            }
        }
        return new Combined(each);
    }

    /** The observations of one delivery (or batch) by each observer, as one; each call isolated. */
    private final class Combined implements Observation {

        private final Observation[] each;

        Combined(Observation[] each) {
            this.each = each;
        }

        @Override
        public void handlerReturned() {
            // In reverse: the last one opened is the first closed.
            for (int i = each.length - 1; i >= 0; i--) {
                try {
                    each[i].handlerReturned();
                } catch (RuntimeException e) {
                    failed(observers[i], "handlerReturned", e);
                }
            }
        }

        @Override
        public void settled(String outcome, String errorType) {
            for (int i = 0; i < each.length; i++) {
                try {
                    each[i].settled(outcome, errorType);
                } catch (RuntimeException e) {
                    failed(observers[i], "settled", e);
                }
            }
        }

        @Override
        public void propagate(Map<String, Object> headers) {
            for (int i = 0; i < each.length; i++) {
                try {
                    each[i].propagate(headers);
                } catch (RuntimeException e) {
                    failed(observers[i], "propagate", e);
                }
            }
        }
    }

    @Override
    public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
        if (observers.length == 0) {
            return PublishObservation.NONE;
        }
        PublishObservation[] each = new PublishObservation[observers.length];
        for (int i = 0; i < observers.length; i++) {
            try {
                each[i] = observers[i].publishing(exchange, routingKey, headers);
            } catch (RuntimeException e) {
                failed(observers[i], "publishing", e);
                each[i] = PublishObservation.NONE;
            }
        }
        return failure -> {
            for (int i = 0; i < each.length; i++) {
                try {
                    each[i].done(failure);
                } catch (RuntimeException e) {
                    failed(observers[i], "published", e);
                }
            }
        };
    }

    /** A publish of properties built already, as the observers changed them (their context in its headers). */
    public record ObservedPublish(AMQP.BasicProperties properties, PublishObservation observation) {
    }

    /**
     * For the runtime's own copies, held copies and dead letters, whose properties are built (and whose header table
     * amqp-client made read-only): the observers get a mutable copy of the headers, which the properties then carry.
     * Callers skip it when nothing is {@link #active()}.
     */
    public ObservedPublish publishingCopy(String exchange, String routingKey, AMQP.BasicProperties properties) {
        PublishObservation[] observed = { PublishObservation.NONE };
        AMQP.BasicProperties changed = HeaderTables.changed(properties,
                headers -> observed[0] = publishing(exchange, routingKey, headers));
        return new ObservedPublish(changed, observed[0]);
    }

    @Override
    public void settled(String queue, String operation, long nanos) {
        for (Observer observer : observers) {
            try {
                observer.settled(queue, operation, nanos);
            } catch (RuntimeException e) {
                failed(observer, "settled", e);
            }
        }
    }

    @Override
    public void watch(LiveFigures figures) {
        for (Observer observer : observers) {
            try {
                observer.watch(figures);
            } catch (RuntimeException e) {
                failed(observer, "watch", e);
            }
        }
    }

    private void failed(Observer observer, String hook, RuntimeException e) {
        if (reported.add(observer.getClass().getName() + '#' + hook)) {
            LOG.errorf(e, "%s failed in %s; ignoring it (messages are consumed and settled as usual; this is logged "
                    + "once)", observer.getClass().getName(), hook);
        }
    }
}
