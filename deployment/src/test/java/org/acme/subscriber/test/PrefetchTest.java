package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The broker hands a subscriber at most its prefetch of unsettled deliveries: the rest stay ready in the queue. The
 * global default comes from quarkus.rabbitmq-subscriber.prefetch, @Subscriber(prefetch) overrides it.
 */
class PrefetchTest {

    static final String CONFIGURED = "t.prefetch.configured";
    static final String ANNOTATED = "t.prefetch.annotated";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(PrefetchTest::deleteQueues)
            .withApplicationRoot(jar -> jar.addClasses(Stuck.class, RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "3")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.shutdown-timeout", "1s")
            .setBeforeAllCustomizer(() -> RabbitAdmin.with(admin -> admin.delete(CONFIGURED, ANNOTATED)));

    /** After the application stopped, so no consumer of it sees the queues go. */
    static void deleteQueues() {
        RabbitAdmin.with(admin -> admin.delete(CONFIGURED, ANNOTATED));
    }

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
