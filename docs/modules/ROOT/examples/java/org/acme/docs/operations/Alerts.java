package org.acme.docs.operations;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;

/** Raises an alert when a subscriber's kill switch trips; in this sample, a log line and a list. */
@ApplicationScoped
public class Alerts {

    private static final Logger LOG = Logger.getLogger(Alerts.class);

    private final List<String> raised = new CopyOnWriteArrayList<>();

    // tag::observer[]
    void onTripped(@Observes SubscriberEvent.KillSwitchTripped tripped) {
        raise(tripped.queue() + ": " + tripped.failures() + " failures in a row, paused for " + tripped.pause());
    }
    // end::observer[]

    void raise(String alert) {
        LOG.warn(alert);
        raised.add(alert);
    }

    public List<String> raised() {
        return List.copyOf(raised);
    }
}
