package io.quarkiverse.rabbitmq.subscriber.runtime.observe.metrics;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.InboxOutboxFigures;
import io.quarkus.runtime.StartupEvent;

/**
 * The outbox's gauges, where the application has Micrometer, Agroal and JTA and a subscription has an inbox: the rows
 * waiting and the oldest one's age, as the relay's last pass found them (so a scrape runs no query), and the groups
 * this instance's relay published. Duplicates are
 * counted with the other outcomes ({@code outcome="duplicate"} of {@link MicrometerObserver#OUTCOMES}).
 */
@Singleton
public class OutboxMeters {

    public static final String WAITING = "quarkus.rabbitmq-subscriber.outbox.waiting";
    public static final String OLDEST_AGE = "quarkus.rabbitmq-subscriber.outbox.oldest.age";
    public static final String RELAYED = "quarkus.rabbitmq-subscriber.outbox.relayed";

    @Inject
    MeterRegistry registry;

    @Inject
    InboxOutboxFigures figures;

    void register(@Observes StartupEvent event) {
        if (!figures.active()) {
            return;
        }
        Gauge.builder(WAITING, figures, each -> each.outbox().waiting())
                .description("Rows waiting in the outbox (counted up to 100,000)").baseUnit("rows")
                .register(registry);
        Gauge.builder(OLDEST_AGE, figures, each -> {
            Long age = each.outbox().oldestAgeMillis();
            return age == null ? 0 : age / 1000.0;
        }).description("Age of the oldest row waiting in the outbox (0 when none waits)").baseUnit("seconds")
                .register(registry);
        FunctionCounter.builder(RELAYED, figures, each -> each.outbox().relayed())
                .description("Groups of outputs this instance's outbox relay published (what a crash or a broker "
                        + "that could not take them left behind)")
                .register(registry);
    }
}
