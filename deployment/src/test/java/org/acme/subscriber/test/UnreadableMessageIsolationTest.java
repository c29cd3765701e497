package org.acme.subscriber.test;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.SubscriberEvent;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A message whose header table nests 40 levels (legal AMQP; amqp-client reads 32) ends the subscribers' shared
 * connection at each delivery. The subscribers consume again one at a time, the next cut names the queue, that
 * subscriber stops with one ERROR and readiness says why, the message stays in its queue, and the bystander on another
 * queue consumes on.
 */
@Tag("wire")
class UnreadableMessageIsolationTest {

    static final String POISONED = "t.unreadable.poisoned";
    static final String BYSTANDER = "t.unreadable.bystander";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(POISONED, BYSTANDER).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class, PoisonMessages.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "300ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "1s");

    @Inject
    Handlers handlers;

    @Test
    void onlyThePoisonedQueueStops() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publishRaw(POISONED, "deep".getBytes(),
                    new AMQP.BasicProperties.Builder().messageId("deep-1").headers(PoisonMessages.nested(40)).build()));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready").then()
                    .body(containsString("queue " + POISONED))
                    .body(containsString("cannot be read by the client")));
            // The bystander consumes, and the connection stays up: a message now, and another a moment later.
            RabbitAdmin.with(admin -> admin.publish(BYSTANDER, "one"));
            await().atMost(Duration.ofSeconds(20)).until(() -> handlers.bystander().size() == 1);
            RabbitAdmin.with(admin -> admin.publish(BYSTANDER, "two"));
            await().atMost(Duration.ofSeconds(10)).until(() -> handlers.bystander().size() == 2);
            List<String> found = logs.errors().stream().filter(line -> line.contains("stops being consumed")).toList();
            assertEquals(1, found.size(), String.join("\n", logs.errors()));
            assertTrue(found.get(0).contains("Queue '" + POISONED + "'"), found.get(0));
        }
        assertEquals(List.of(), handlers.poisoned(), "the handler never saw it");
        // Observers hear it too, as a CDI event.
        await().until(() -> handlers.events().stream().anyMatch(event -> event instanceof SubscriberEvent.Halted halted
                && halted.queue().equals(POISONED) && halted.reason().contains("cannot be read by the client")));
        assertEquals(1L, (long) RabbitAdmin.<Long> withResult(admin -> admin.depth(POISONED)), "it stays in its queue");
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> poisoned = new CopyOnWriteArrayList<>();
        private final List<String> bystander = new CopyOnWriteArrayList<>();

        List<String> poisoned() {
            return poisoned;
        }

        List<String> bystander() {
            return bystander;
        }

        private final List<SubscriberEvent> events = new CopyOnWriteArrayList<>();

        List<SubscriberEvent> events() {
            return events;
        }

        void on(@Observes SubscriberEvent event) {
            events.add(event);
        }

        @Subscriber(POISONED)
        void poisoned(String body) {
            poisoned.add(body);
        }

        @Subscriber(BYSTANDER)
        void bystander(String body) {
            bystander.add(body);
        }
    }
}
