package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The broker hands a subscriber at most its prefetch of unsettled deliveries: the rest stay ready in the queue. The
 * global default comes from quarkus.rabbitmq-subscriber.prefetch, @Subscriber(prefetch) overrides it.
 */
@Tag("wire")
class PrefetchTest {

    static final String CONFIGURED = "t.prefetch.configured";
    static final String ANNOTATED = "t.prefetch.annotated";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(CONFIGURED, ANNOTATED).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Stuck.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "3")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.shutdown-timeout", "1s");

    @Inject
    Stuck stuck;

    @Test
    void atMostPrefetchDeliveriesAreOutstanding() {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < 10; i++) {
                admin.publish(CONFIGURED, "c" + i);
                admin.publish(ANNOTATED, "a" + i);
            }
            await().until(() -> stuck.configured.get() == 3 && stuck.annotated.get() == 2);
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3))
                    .until(() -> admin.depth(CONFIGURED) == 7 && admin.depth(ANNOTATED) == 8);
            assertEquals(3, stuck.configured.get());
            assertEquals(2, stuck.annotated.get());
        });
        stuck.release.countDown();
        await().until(() -> stuck.configured.get() == 10 && stuck.annotated.get() == 10);
    }

    public static class Stuck {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger configured = new AtomicInteger();
        final AtomicInteger annotated = new AtomicInteger();

        @Subscriber(CONFIGURED)
        void configured(String body) throws InterruptedException {
            configured.incrementAndGet();
            release.await(30, TimeUnit.SECONDS);
        }

        @Subscriber(value = ANNOTATED, prefetch = 2)
        void annotated(String body) throws InterruptedException {
            annotated.incrementAndGet();
            release.await(30, TimeUnit.SECONDS);
        }
    }
}
