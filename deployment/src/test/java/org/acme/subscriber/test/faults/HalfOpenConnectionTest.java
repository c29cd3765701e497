package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A network path that stops carrying anything without closing (a half-open connection), with the heartbeat asked for in
 * the url ({@code ?heartbeat=1}). That parameter used to be overridden by the runtime's own 30 s, so the stall went
 * unnoticed for a minute: readiness stayed UP, and the outputs' confirms timed out first, counting successful handlings
 * as failures. Now the stall is found within a few heartbeats: readiness DOWN, a reconnection, and the deliveries the
 * broker held for the dead connection are handled again, none counted as a failure.
 */
@Tag("wire")
@Tag("serial")
class HalfOpenConnectionTest {

    static final String ORDERS = "t.halfopen.orders";
    static final String SHIPMENTS = "t.halfopen.shipments";
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(WireBroker.PORT);

    /**
     * Changes what the whole broker does (or times a fault): never beside another such class, whichever JVM runs it. The
     * serial phase runs these with the tests that use no broker, in several JVMs.
     */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, ORDERS + ".dead", SHIPMENTS)
            .before(admin -> admin.declare(SHIPMENTS, java.util.Map.of()));

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, ToxicProxy.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url",
                    "amqp://guest:guest@127.0.0.1:" + PROXY.port() + "?heartbeat=1")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.jitter", "0");

    @AfterAll
    static void closeProxy() {
        PROXY.close().run();
    }

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void aStallIsFoundWithinAFewHeartbeatsAndCostsNoAttempt() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            publish(0, 20);
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.handled().size() == 20);
            assertTrue(status.notReady().isEmpty(), status.notReady().toString());

            PROXY.stallOpenConnections().run();
            long stalled = System.nanoTime();
            // Published beside the proxy: RabbitMQ hands them to the stalled connection, which never answers.
            publish(20, 40);
            // About two heartbeats (2.1-2.5 s measured): within six, with room for a loaded machine.
            await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(50))
                    .until(() -> !status.notReady().isEmpty());
            long found = (System.nanoTime() - stalled) / 1_000_000;
            System.out.printf("HALF-OPEN heartbeat=1s readiness DOWN after %d ms: %s%n", found, status.notReady());

            await().atMost(Duration.ofSeconds(30)).until(() -> status.notReady().isEmpty()
                    && handlers.handled().size() == 40);
            // Each handled message's output is in RabbitMQ, none was counted as a failure (no retry copy, no dead letter).
            Set<String> shipped = new TreeSet<>();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                for (GetResponse response : RabbitAdmin.withResult(admin -> admin.drain(SHIPMENTS))) {
                    shipped.add(RabbitAdmin.body(response));
                }
                return shipped.size() == 40;
            });
            assertEquals(0L, (long) RabbitAdmin.withResult(admin -> admin.depth(ORDERS + ".dead")));
            assertEquals(Set.of(1), Set.copyOf(handlers.attempts()), "every handling was a first attempt");
            List<String> confirmFailures = logs.errors().stream().filter(line -> line.contains("did not confirm"))
                    .toList();
            assertEquals(List.of(), confirmFailures);
        }
    }

    private static void publish(int from, int to) {
        RabbitAdmin.with(admin -> {
            for (int i = from; i < to; i++) {
                admin.publish(ORDERS, "order-" + i, "order-" + i);
            }
        });
    }

    @ApplicationScoped
    public static class Handlers {
        private final Set<String> handled = ConcurrentHashMap.newKeySet();
        private final List<Integer> attempts = new java.util.concurrent.CopyOnWriteArrayList<>();

        Set<String> handled() {
            return handled;
        }

        List<Integer> attempts() {
            return attempts;
        }

        @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = ORDERS + ".dead")
        Outcome ship(String order, io.quarkiverse.rabbitmq.subscriber.Delivery delivery, Outputs outputs) {
            attempts.add(delivery.attempt());
            handled.add(order);
            outputs.send(SHIPMENTS, order);
            return Outcome.ack();
        }
    }
}
