package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Publishers steering where the application writes (a confused deputy). A publisher could set the headers the runtime
 * writes on its copies ({@code x-original-queue}, {@code x-original-exchange}, {@code -routing-key}) and have them
 * honoured: a replay moved a dead letter into a queue of the publisher's choosing, and the handler was told an exchange
 * and routing key the message never came through; a {@code CC} header was kept on every copy, so each retry wrote into
 * the queues it named too; a request's {@code reply-to} had the application reply into its own waiting queue, whose
 * head the reply (no expiration) then froze. Only what the runtime wrote itself counts now, and replies go only where
 * they may.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class ForgedHeadersTest {

    static final String ORDERS = "t.forged.orders";
    static final String DEAD = "t.forged.orders.dead";
    static final String VICTIM = "t.forged.victim";
    static final String QUOTES = "t.forged.quotes";
    static final String LATER = "t.forged.later";
    static final String LATER_WAITING = "t.forged.later.retry";
    static final String REPLIES = "t.forged.replies.1";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, DEAD, VICTIM, QUOTES, LATER, LATER_WAITING,
            LATER + ".dead", REPLIES).givesUrl()
            .before(admin -> {
                admin.declare(VICTIM, Map.of());
                admin.declare(REPLIES, Map.of());
            });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.replies.allowed-queues", "t.forged.replies.*");

    @Inject
    Handlers handlers;

    @Inject
    DeadLetters deadLetters;

    @Test
    void aPublishersRouteHeadersAreNotHonouredNorCopied() throws Exception {
        // Published straight to the queue, claiming to have come through 'admin' with 'pay.all', from 'payroll', and
        // carbon-copied to the victim queue (the publisher's own publish puts one there: that one is its right).
        publish(ORDERS, "order-1", new AMQP.BasicProperties.Builder().messageId("order-1").headers(Map.of(
                Delivery.ORIGINAL_EXCHANGE_HEADER, "admin", Delivery.ORIGINAL_ROUTING_KEY_HEADER, "pay.all",
                Delivery.ORIGINAL_QUEUE_HEADER, VICTIM, "CC", List.of(VICTIM))).build());
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(DEAD) == 1);
        assertEquals(List.of("'' " + ORDERS, "'' " + ORDERS), handlers.routes(),
                "every attempt is told the route it came by, not the publisher's");
        assertEquals(1, depth(VICTIM), "the copies went to their one queue: no CC of the publisher's");

        // The dead letter names its own queue, so a replay moves it back there, not to the forged one.
        assertEquals(ORDERS, deadLetters.peek(DEAD, 1).get(0).sourceQueue());
        assertEquals(1, deadLetters.replay(DEAD, 10));
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.routes().size() == 4 && depth(DEAD) == 1);
        assertEquals(1, depth(VICTIM));
        RabbitAdmin.with(admin -> admin.drainIfExists(DEAD));
    }

    @Test
    void aDeadLetterAPublisherWroteIsNotReplayedWhereItSays() throws Exception {
        RabbitAdmin.with(admin -> admin.drainIfExists(DEAD));
        publish(DEAD, "forged", new AMQP.BasicProperties.Builder().messageId("forged")
                .headers(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, VICTIM)).build());
        publish(DEAD, "forged-death", new AMQP.BasicProperties.Builder().messageId("forged-death")
                .headers(Map.of("x-death", List.of(Map.of("queue", VICTIM, "reason", "rejected", "count", 1L,
                        "exchange", "", "routing-keys", List.of(VICTIM)))))
                .build());
        await().atMost(Duration.ofSeconds(5)).until(() -> depth(DEAD) == 2);
        long victims = depth(VICTIM);
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> deadLetters.replay(DEAD, 10));
        assertTrue(failure.getMessage().startsWith("Cannot tell which queue the dead letter message-id forged"),
                failure.getMessage());
        RabbitAdmin.with(admin -> admin.take(DEAD));
        failure = assertThrows(IllegalStateException.class, () -> deadLetters.replay(DEAD, 10));
        assertTrue(failure.getMessage().contains("says it came from queue '" + VICTIM + "', which no subscriber of "
                + "this application that dead-letters into '" + DEAD + "' consumes (" + ORDERS + ")"),
                failure.getMessage());
        assertEquals(victims, depth(VICTIM));
        await().atMost(Duration.ofSeconds(5)).until(() -> depth(DEAD) == 1);
        RabbitAdmin.with(admin -> admin.drainIfExists(DEAD));
    }

    @Test
    void aReplyGoesNeitherIntoTheApplicationsQueuesNorOutsideWhereItMay() throws Exception {
        publish(QUOTES, "to-waiting", new AMQP.BasicProperties.Builder().messageId("q-1").replyTo(LATER_WAITING)
                .build());
        publish(QUOTES, "to-elsewhere", new AMQP.BasicProperties.Builder().messageId("q-2").replyTo(VICTIM).build());
        publish(QUOTES, "to-replies", new AMQP.BasicProperties.Builder().messageId("q-3").replyTo(REPLIES).build());
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.refusals().size() == 2 && depth(REPLIES) == 1);
        assertEquals(List.of("Cannot reply to message-id q-1: its reply-to names queue '" + LATER_WAITING
                + "', and it is one of this application's own queues (a work, waiting or dead-letter queue), where a "
                + "reply never goes",
                "Cannot reply to message-id q-2: its reply-to names queue '" + VICTIM
                        + "', and replies may go only to [t.forged.replies.*] "
                        + "(quarkus.rabbitmq-subscriber.replies.allowed-queues)"),
                // Handled side by side on workers: in either order.
                handlers.refusals().stream().sorted().toList());
        assertEquals(0, depth(LATER_WAITING), "nothing froze the waiting queue's head");
    }

    private static void publish(String queue, String body, AMQP.BasicProperties properties) {
        RabbitAdmin.with(admin -> admin.publishRaw(queue, body.getBytes(StandardCharsets.UTF_8), properties));
    }

    private static long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> routes = new CopyOnWriteArrayList<>();
        private final List<String> refusals = new CopyOnWriteArrayList<>();

        List<String> routes() {
            return routes;
        }

        List<String> refusals() {
            return refusals;
        }

        @Subscriber(value = ORDERS, maxAttempts = 2, deadLetter = DEAD)
        Outcome order(String body, Delivery delivery) {
            routes.add("'" + delivery.exchange() + "' " + delivery.routingKey());
            return Outcome.retry();
        }

        @Subscriber(value = LATER, delay = Delay.DLX_TTL, maxAttempts = 3, deadLetter = LATER + ".dead")
        Outcome later(String body) {
            return Outcome.ack();
        }

        @Subscriber(QUOTES)
        Outcome quote(String body, Outputs outputs) {
            try {
                outputs.reply("quote for " + body);
            } catch (IllegalStateException refused) {
                refusals.add(refused.getMessage());
            }
            return Outcome.ack();
        }
    }
}
