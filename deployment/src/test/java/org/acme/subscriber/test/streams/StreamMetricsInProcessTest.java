package org.acme.subscriber.test.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A stream's lag and a super stream's active partitions, as metrics show them, on the in-process broker: the lag counts
 * the messages past the offset the consumer would resume after (here all five, while the first waits a minute in
 * place), and falls to 0 once they are settled; this instance, alone, is the active consumer of every partition.
 */
class StreamMetricsInProcessTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-micrometer-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.micrometer.binder-enabled-default", "false")
            .overrideConfigKey("quarkus.micrometer.registry-enabled-default", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4");

    @Inject
    MeterRegistry registry;

    @Inject
    InProcessBroker broker;

    @Inject
    RabbitPublisher publisher;

    @Inject
    SubscriberStatus status;

    @BeforeAll
    static void simpleRegistry() {
        Metrics.globalRegistry.add(new SimpleMeterRegistry());
    }

    private double gauge(String name, String queue) {
        return registry.get(name).tag("queue", queue).gauge().value();
    }

    @Test
    void theLagCountsWhatIsPastTheStoredOffset() {
        for (int i = 0; i < 5; i++) {
            publisher.sendConfirmed("m.stream.events", "event-" + i).await().atMost(Duration.ofSeconds(5));
        }
        broker.awaitIdle();
        assertEquals(5, gauge("quarkus.rabbitmq-subscriber.stream.lag", "m.stream.events"),
                "the first waits in place: nothing is stored, all five are past where the consumer would resume");
        broker.advance(Duration.ofMinutes(1));
        broker.awaitIdle();
        assertEquals(0, gauge("quarkus.rabbitmq-subscriber.stream.lag", "m.stream.events"));
    }

    @Test
    void thisInstanceIsTheActiveConsumerOfEveryPartition() {
        for (int index = 0; index < 2; index++) {
            assertEquals(1, gauge("quarkus.rabbitmq-subscriber.partition.active", "m.stream.accounts-" + index));
            assertEquals(0, gauge("quarkus.rabbitmq-subscriber.stream.lag", "m.stream.accounts-" + index));
        }
        assertEquals(List.of(0, 1), status.activePartitions("m.stream.accounts"));
    }

    public static class Handlers {
        @Subscriber(value = "m.stream.events", type = QueueType.STREAM, offset = "first")
        Outcome event(String body, Delivery delivery) {
            return body.equals("event-0") && delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMinutes(1))
                    : Outcome.ack();
        }

        @Subscriber(value = "m.stream.accounts", type = QueueType.STREAM, partitions = 2)
        void account(String body) {
        }
    }
}
