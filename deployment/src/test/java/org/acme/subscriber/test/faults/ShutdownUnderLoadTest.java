package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Stopping the application while thousands of messages are in flight, being retried and waiting out delays (in the
 * service and in a waiting queue): once it has stopped, every message was either handled or is back in RabbitMQ (its
 * work queue, or its waiting queue). Checked after the stop, from the broker.
 */
@Tag("wire")
class ShutdownUnderLoadTest {

    static final int MESSAGES = 5_000;
    static final String IN_SERVICE = "sl.inservice";
    static final String WAITING = "sl.waiting";
    static final String[] QUEUES = { IN_SERVICE, WAITING, WAITING + ".retry" };
    /** Handled ids, kept where the test's two class loaders both see them (a JDK set in the system properties). */
    static final String HANDLED = "org.acme.shutdown-under-load.handled";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> System.getProperties().put(HANDLED, ConcurrentHashMap.newKeySet()))
            .setAfterAllCustomizer(ShutdownUnderLoadTest::everyMessageIsHandledOrBackInRabbitMq)
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.prefetch", "100")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.shutdown-timeout", "5s");

    @SuppressWarnings("unchecked")
    static Set<String> handled() {
        return (Set<String>) System.getProperties().get(HANDLED);
    }

    @Test
    void theApplicationStopsMidRun() throws Exception {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < MESSAGES; i++) {
                admin.publishRaw(i % 2 == 0 ? IN_SERVICE : WAITING, Integer.toString(i).getBytes(StandardCharsets.UTF_8),
                        new AMQP.BasicProperties.Builder().messageId("m-" + i).build());
            }
        });
        // The application stops after this returns, with most messages still to handle.
        await().atMost(Duration.ofMinutes(1)).until(() -> handled().size() >= MESSAGES / 5);
    }

    /** After the stop: handled, or in RabbitMQ. Then the fixture deletes the queues. */
    static void everyMessageIsHandledOrBackInRabbitMq() {
        RabbitAdmin.with(admin -> {
            try {
                Set<String> inRabbitMq = new HashSet<>();
                for (String queue : QUEUES) {
                    for (GetResponse response : admin.drain(queue)) {
                        inRabbitMq.add(RabbitAdmin.body(response));
                    }
                }
                Set<String> lost = new HashSet<>();
                for (int i = 0; i < MESSAGES; i++) {
                    String id = Integer.toString(i);
                    if (!handled().contains(id) && !inRabbitMq.contains(id)) {
                        lost.add(id);
                    }
                }
                System.out.printf("SHUTDOWN messages=%d handled=%d back-in-rabbitmq=%d lost=%d%n", MESSAGES,
                        handled().size(), inRabbitMq.size(), lost.size());
                assertEquals(Set.of(), lost, "every message was handled or is back in RabbitMQ");
            } finally {
                System.getProperties().remove(HANDLED);
            }
        });
    }

    public static class Handlers {

        @SuppressWarnings("unchecked")
        static Outcome handle(String body, Delivery delivery) {
            LockSupport.parkNanos(500_000);
            int kind = Integer.parseInt(body) % 4;
            if (kind == 1 && delivery.attempt() == 1) {
                return Outcome.retry();
            }
            if (kind == 2 && delivery.attempt() == 1) {
                // Longer than the run: these wait when the application stops.
                return Outcome.retryAfter(Duration.ofMinutes(10));
            }
            ((Set<String>) System.getProperties().get(HANDLED)).add(body);
            return Outcome.ack();
        }

        @Subscriber(value = IN_SERVICE, maxAttempts = 3, concurrency = 4)
        Outcome inService(String body, Delivery delivery) {
            return handle(body, delivery);
        }

        @Subscriber(value = WAITING, maxAttempts = 3, delay = Delay.DLX_TTL, concurrency = 4)
        Outcome waiting(String body, Delivery delivery) {
            return handle(body, delivery);
        }
    }
}
