package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * An operator deletes a waiting queue, with {@code copy-channel=delivery-channel}: a DEFAULT copy is published on the
 * delivery's channel and its original acked at once, so RabbitMQ returns the copy and the runtime puts it back in the
 * work queue a second later, without the expiration it had for the waiting queue. None is lost; one ERROR names the
 * missing queue.
 */
@Tag("wire")
class DeletedWaitingQueueOnTheDeliveryChannelTest {

    static final String DEFAULT = "t.deleted-waiting.delivery-channel";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(DEFAULT, DEFAULT + ".retry").givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.copy-channel", "delivery-channel");

    @Inject
    Handlers handlers;

    @Test
    void defaultPutsTheReturnedCopyBackInTheWorkQueue() {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> {
                admin.delete(DEFAULT + ".retry");
                admin.publish(DEFAULT, "m");
            });
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.entries(DEFAULT).size() == 2);
            assertEquals(List.of("1|null", "2|null"), handlers.entries(DEFAULT),
                    "back with the count raised and no expiration");
            assertTrue(logs.errors().stream().anyMatch(line -> line.contains("Queue '" + DEFAULT + ".retry' does not "
                    + "exist")), () -> "the missing queue is named: " + logs.errors());
        }
    }

    public static class Handlers {
        final List<String> log = new CopyOnWriteArrayList<>();

        List<String> entries(String queue) {
            return log.stream().filter(entry -> entry.startsWith(queue + "|")).map(e -> e.substring(queue.length() + 1))
                    .toList();
        }

        @Subscriber(value = DEFAULT, delay = Delay.DLX_TTL)
        Outcome byDefault(String body, Delivery delivery) {
            log.add(delivery.queue() + "|" + delivery.attempt() + "|"
                    + delivery.properties().expiration().map(ttl -> String.valueOf(ttl.toMillis())).orElse(null));
            return delivery.attempt() == 1 ? Outcome.retryAfter(Duration.ofMillis(200)) : Outcome.ack();
        }
    }
}
