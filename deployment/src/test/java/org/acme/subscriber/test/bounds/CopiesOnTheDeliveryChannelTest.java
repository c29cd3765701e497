package org.acme.subscriber.test.bounds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code copy-channel=delivery-channel}: copies and dead letters go on the delivery's own channel (fire-and-forget
 * under {@code DEFAULT}, the channel's order puts each before its original's ack), and the publishing connection
 * carries none of them. Every message still gets its three deliveries and one dead letter.
 */
@Tag("wire")
class CopiesOnTheDeliveryChannelTest {

    static final String QUEUE = "t.copies.deliverychannel";
    static final String DEAD = "t.copies.deliverychannel.dead";
    static final String CONNECTION = "t-copies-delivery-channel";
    static final int MESSAGES = 50;

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, DEAD).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.copy-channel", "delivery-channel");

    @Inject
    Handlers handlers;

    @Test
    void copiesLeaveOnTheDeliveryChannelAndEveryMessageReachesItsDeadLetterQueueOnce() throws Exception {
        RabbitAdmin.with(admin -> {
            for (int i = 0; i < MESSAGES; i++) {
                admin.publish(QUEUE, "m-" + i);
            }
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.dead().size() == MESSAGES);
        assertEquals(3 * MESSAGES, handlers.attempts());
        assertEquals(MESSAGES, handlers.dead().stream().distinct().count());
        RabbitAdmin.with(admin -> await().until(() -> admin.depth(QUEUE) == 0 && admin.depth(DEAD) == 0));
        // Nothing opened a channel on the publishing connection (if anything opened the connection at all).
        String publishing = RabbitAdmin.rabbitmqctl("list_connections", "channels", "client_properties").lines()
                .filter(line -> line.contains("\"connection_name\",\"" + CONNECTION + "-publisher\"")).findFirst()
                .orElse("0");
        assertTrue(publishing.strip().startsWith("0"), publishing);
    }

    public static class Handlers {
        private final AtomicInteger attempts = new AtomicInteger();
        private final List<String> dead = new CopyOnWriteArrayList<>();

        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = DEAD)
        Outcome retried(String body) {
            attempts.incrementAndGet();
            return Outcome.retry();
        }

        @Subscriber(DEAD)
        void dead(String body) {
            dead.add(body);
        }

        int attempts() {
            return attempts.get();
        }

        List<String> dead() {
            return dead;
        }
    }
}
