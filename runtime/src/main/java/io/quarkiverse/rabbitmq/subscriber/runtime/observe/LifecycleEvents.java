package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.Context;

/**
 * Fires {@link SubscriberEvent}s to the application's observers, synchronous and asynchronous. On an event loop the
 * firing moves to a worker first: a synchronous observer may block. An observer that throws is logged, never the
 * subscriber's failure.
 */
public final class LifecycleEvents {

    private static final Logger LOG = Logger.getLogger(LifecycleEvents.class);

    private LifecycleEvents() {
    }

    /** On the calling thread, unless it is an event loop. */
    public static void fire(SubscriberEvent event) {
        if (Context.isOnEventLoopThread()) {
            fireOnAWorker(event);
        } else {
            fireHere(event);
        }
    }

    /** On a worker thread, for a caller that must not wait for observers (an event loop, the clock's timer thread). */
    public static void fireOnAWorker(SubscriberEvent event) {
        Infrastructure.getDefaultWorkerPool().execute(() -> fireHere(event));
    }

    private static void fireHere(SubscriberEvent event) {
        ArcContainer container = Arc.container();
        if (container == null || !container.isRunning()) {
            return;
        }
        var fired = container.beanManager().getEvent().select(SubscriberEvent.class);
        // Asynchronous observers first: a synchronous one that throws ends fire().
        fired.fireAsync(event);
        try {
            fired.fire(event);
        } catch (RuntimeException e) {
            LOG.errorf(e, "An observer of %s failed", event);
        }
    }
}
