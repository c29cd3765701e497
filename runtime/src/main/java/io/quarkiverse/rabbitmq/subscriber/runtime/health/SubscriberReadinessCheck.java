package io.quarkiverse.rabbitmq.subscriber.runtime.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;

/**
 * Readiness, where {@code quarkus-smallrye-health} is present: DOWN while the connection is lost, while a subscriber
 * the broker stopped does not consume again, while a stream's consumer cannot reach its stream (the stream client
 * recovering its connection), while RabbitMQ blocks publishing, and before the first start or after a
 * stop, while the outbox cannot drain ({@code outbox.stuck-after}), each with what and why; UP once every subscriber
 * consumes. There is no liveness check: a broker outage is not
 * a reason to restart the service, which reconnects by itself.
 */
@Readiness
@ApplicationScoped
public class SubscriberReadinessCheck implements HealthCheck {

    @Inject
    SubscriberStatus status;

    /** Unsatisfied in applications without Agroal and JTA. */
    @Inject
    Instance<InboxOutboxFigures> inboxOutbox;

    @Override
    public HealthCheckResponse call() {
        Map<String, String> problems = status.notReady();
        String stuck = inboxOutbox.isResolvable() && inboxOutbox.get().active() ? inboxOutbox.get().stuck() : null;
        if (stuck != null) {
            problems = new LinkedHashMap<>(problems);
            problems.put("outbox", stuck);
        }
        HealthCheckResponseBuilder response = HealthCheckResponse.named("RabbitMQ subscribers").status(problems.isEmpty());
        if (problems.isEmpty()) {
            response.withData("subscribers", status.definitions().size());
            if (!status.topology().bindings.isEmpty()) {
                // What the subscribers are bound to, declared or checked at their start.
                response.withData("exchanges", status.topology().exchanges.size());
                response.withData("bindings", status.topology().bindings.size());
            }
        }
        problems.forEach(response::withData);
        List<String> paused = status.paused();
        if (!paused.isEmpty()) {
            // Paused on purpose: the service works, it takes nothing from these queues until resumed.
            response.withData("paused", String.join(",", paused));
        }
        return response.build();
    }
}
