package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberEngine;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * retryAfter with the default IN_SERVICE delay, on the real broker: the original is acked, the copy comes back after
 * the delay with the retry count raised and every other header kept; a graceful stop publishes a pending copy at once.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("wire")
class RetryAfterWireTest {

    static final String SHORT = "t.retry-after.short";
    static final String LONG = "t.retry-after.long";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(SHORT, LONG).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class));

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;
    @Inject
    SubscriberEngine engine;

    @Test
    @Order(1)
    void theCopyComesBackAfterTheDelay() {
        RabbitAdmin.with(admin -> admin.publishWithHeaders(SHORT, "again", "m-7", Map.of("tenant", "acme")));
        await().atMost(Duration.ofSeconds(10)).until(() -> handlers.short_.size() == 2);
        assertEquals(List.of("1 tenant=acme id=m-7", "2 tenant=acme id=m-7"), handlers.short_);
        RabbitAdmin.with(admin -> assertEquals(0, admin.depth(SHORT)));
    }

    /** Runs last: it stops the engine. */
    @Test
    @Order(2)
    void aGracefulStopPublishesPendingCopiesAtOnce() {
        RabbitAdmin.with(admin -> admin.publish(LONG, "held"));
        await().until(() -> handlers.long_.size() == 1 && status.stats().delayed() >= 1 && status.inFlight() == 0);
        engine.stop();
        RabbitAdmin.with(admin -> {
            await().until(() -> admin.depth(LONG) == 1);
            GetResponse copy = admin.drain(LONG).get(0);
            assertEquals("held", RabbitAdmin.body(copy));
            assertEquals(2, ((Number) copy.getProps().getHeaders().get("x-retry-count")).intValue());
            assertFalse(copy.getProps().getHeaders().containsKey("x-death"));
        });
    }

    public static class Handlers {
        final List<String> short_ = new CopyOnWriteArrayList<>();
        final List<String> long_ = new CopyOnWriteArrayList<>();

        @Subscriber(SHORT)
        Outcome quick(String body, Delivery delivery) {
            short_.add(delivery.attempt() + " tenant=" + delivery.header("tenant") + " id=" + delivery.messageId());
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(300)) : Outcome.ack();
        }

        @Subscriber(LONG)
        Outcome slow(String body) {
            long_.add(body);
            return Outcome.retryAfter(Duration.ofHours(1));
        }
    }
}
