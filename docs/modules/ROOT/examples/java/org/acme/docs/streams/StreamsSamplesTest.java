package org.acme.docs.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The Streams page's sample on a RabbitMQ with the stream plugin (4.0.5 and 4.3.6 in CI; skipped elsewhere, naming
 * rabbitmq_stream): shipments are read from the first offset in order, an event without a status goes to the
 * dead-letter queue, a retry holds the events behind it, a filtered reader gets its region's events only, and each
 * order's events keep their order through a super stream.
 */
@Tag("wire")
@Tag("stream")
class StreamsSamplesTest {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("shipments", "shipments.dead", "shipments.regional",
            "shipments.ordered-0", "shipments.ordered-1", "shipments.ordered-2", "shipments.ordered-3")
            .exchanges("shipments.ordered").needsStreams().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest app = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Shipment.class, Shipments.class, RegionalShipments.class,
                    OrderedShipments.class))
            .overrideConfigKey("%test.quarkus.rabbitmq-subscriber.broker", "rabbitmq")
            .overrideConfigKey("quarkus.application.name", "shipment-tracker")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(WireBroker.STREAM_PORT));

    @Inject
    RabbitPublisher publisher;

    @Inject
    Shipments shipments;

    @Inject
    RegionalShipments regional;

    @Inject
    OrderedShipments ordered;

    @Test
    void eachOrdersEventsAreTrackedInOrderThroughTheSuperStream() {
        for (String status : List.of("packed", "shipped", "delivered")) {
            for (int order = 1; order <= 6; order++) {
                ordered.publish(new Shipment("o-" + order, status)).await().atMost(Duration.ofSeconds(10));
            }
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> ordered.tracked().size() >= 18);
        for (int order = 1; order <= 6; order++) {
            String id = "o-" + order;
            assertEquals(List.of(id + ":packed", id + ":shipped", id + ":delivered"),
                    ordered.tracked().stream().filter(line -> line.startsWith(id + ":")).toList());
        }
    }

    @Test
    void aFilteredReaderGetsItsRegionOnly() {
        regional.publish(new Shipment("o-eu-1", "packed"), "eu").await().atMost(Duration.ofSeconds(10));
        regional.publish(new Shipment("o-us-1", "packed"), "us").await().atMost(Duration.ofSeconds(10));
        regional.publish(new Shipment("o-eu-2", "packed"), "eu").await().atMost(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(20)).until(() -> regional.european().size() >= 2);
        assertEquals(List.of("o-eu-1", "o-eu-2"), regional.european());
    }

    @Test
    void shipmentsAreTrackedInOrderAndABadOneIsDeadLettered() {
        shipments.trackerDown(true);
        publisher.sendConfirmed("shipments", new Shipment("o-1", "packed")).await().atMost(Duration.ofSeconds(10));
        publisher.sendConfirmed("shipments", new Shipment("o-1", "")).await().atMost(Duration.ofSeconds(10));
        publisher.sendConfirmed("shipments", new Shipment("o-1", "shipped")).await().atMost(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(20)).until(() -> shipments.attempts() >= 1);
        assertEquals(List.of(), shipments.tracked(), "the first waits its retry in place; the others wait behind it");

        shipments.trackerDown(false);
        await().atMost(Duration.ofSeconds(20)).until(() -> shipments.tracked().size() == 2);
        assertEquals(List.of("o-1:packed", "o-1:shipped"),
                shipments.tracked().stream().map(line -> line.substring(0, line.indexOf('@'))).toList());
        await().atMost(Duration.ofSeconds(20))
                .until(() -> RabbitAdmin.withResult(admin -> admin.depth("shipments.dead")) == 1);
    }
}
