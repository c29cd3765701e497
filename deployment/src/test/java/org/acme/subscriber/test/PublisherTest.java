package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.json.JsonObject;

/** The publisher encodes as subscribers decode, reaches queues and exchanges, and reports confirms and returns. */
@Tag("wire")
class PublisherTest {

    static final String QUEUE = "t.publisher.in";
    static final String RAW = "t.publisher.raw";
    static final String EXCHANGE = "t.publisher.x";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, RAW).exchanges(EXCHANGE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Inbox.class, Refund.class));

    @Inject
    RabbitPublisher publisher;

    @Inject
    Inbox inbox;

    @Test
    void sendToAQueueIsDecodedBySubscribers() {
        publisher.send(QUEUE, new Refund(1, "4242", 100)).await().atMost(Duration.ofSeconds(5));
        publisher.sendConfirmedAndAwait(QUEUE, new Refund(2, "4343", 200));
        // Other tests of this class publish to the same queue: wait for these two, whatever else arrived.
        await().until(() -> inbox.refunds.contains(new Refund(1, "4242", 100))
                && inbox.refunds.contains(new Refund(2, "4343", 200)));
        assertTrue(inbox.messageIds.stream().allMatch(id -> id != null && !id.isEmpty()), "every message has an id");
    }

    @Test
    void sendToAQueueWithHeaders() {
        publisher.send(QUEUE, new Refund(4, "4545", 400), Map.of("tenant", "acme")).await()
                .atMost(Duration.ofSeconds(5));
        publisher.sendConfirmedAndAwait(QUEUE, new Refund(5, "4646", 500), Map.of("tenant", "globex"));
        await().until(() -> inbox.tenants.containsKey(4L) && inbox.tenants.containsKey(5L));
        assertEquals("acme", inbox.tenants.get(4L));
        assertEquals("globex", inbox.tenants.get(5L));
        assertTrue(inbox.refunds.contains(new Refund(4, "4545", 400)), "decoded as without headers");
    }

    @Test
    void sendToAnExchangeWithRoutingKeyAndHeaders() {
        RabbitAdmin.with(admin -> {
            admin.declare(RAW, null);
            admin.declareDirectExchangeBoundTo(EXCHANGE, RAW, "refunds.eu");
        });
        publisher.publishConfirmed(EXCHANGE, "refunds.eu", new JsonObject().put("id", 3), Map.of("tenant", "acme"))
                .await().atMost(Duration.ofSeconds(5));
        publisher.publish(EXCHANGE, "refunds.eu", "plain text").await().atMost(Duration.ofSeconds(5));
        RabbitAdmin.with(admin -> {
            await().until(() -> admin.depth(RAW) == 2);
            List<GetResponse> messages = admin.drain(RAW);
            assertEquals("{\"id\":3}", RabbitAdmin.body(messages.get(0)));
            assertEquals("application/json", messages.get(0).getProps().getContentType());
            assertEquals("acme", messages.get(0).getProps().getHeaders().get("tenant").toString());
            assertEquals("plain text", RabbitAdmin.body(messages.get(1)));
            assertEquals("text/plain", messages.get(1).getProps().getContentType());
            assertEquals(2, messages.get(1).getProps().getDeliveryMode(), "messages are persistent");
        });
    }

    @Test
    void aConfirmedPublishNoQueueTakesFails() {
        RuntimeException failure = assertThrows(RuntimeException.class,
                () -> publisher.sendConfirmedAndAwait("t.publisher.nowhere-" + System.nanoTime(), "lost?"));
        assertNotNull(failure.getMessage());
        assertTrue(failure.getMessage().contains("unroutable"), failure.getMessage());
    }

    @Test
    void aConfirmedPublishToAMissingExchangeFailsInsteadOfHanging() {
        RuntimeException failure = assertThrows(RuntimeException.class, () -> publisher
                .publishConfirmed("t.publisher.no-such-exchange", "k", "x").await()
                .atMost(Duration.ofSeconds(10)));
        assertTrue(failure.getMessage().contains("no exchange 't.publisher.no-such-exchange'"), failure.getMessage());
        // The publisher recovers: the next confirmed publish goes through on a fresh channel.
        publisher.sendConfirmedAndAwait(QUEUE, new Refund(3, "4444", 300));
        await().until(() -> inbox.refunds.contains(new Refund(3, "4444", 300)));
    }

    @Test
    void aHeaderAmqpCannotCarryFailsThePublishAndNothingElse() {
        RuntimeException failure = assertThrows(RuntimeException.class, () -> publisher
                .sendConfirmed(QUEUE, new Refund(8, "8888", 800), Map.of("when", java.time.Instant.EPOCH)).await()
                .atMost(Duration.ofSeconds(10)));
        assertTrue(failure.getMessage().contains("cannot be sent over AMQP"), failure.getMessage());
        assertTrue(failure.getMessage().contains("when"), failure.getMessage());
        // The confirm numbering is intact: the next confirmed publish completes.
        publisher.sendConfirmedAndAwait(QUEUE, new Refund(9, "9999", 900));
        await().until(() -> inbox.refunds.contains(new Refund(9, "9999", 900)));
    }

    public record Refund(long id, String card, long amountCents) {
    }

    public static class Inbox {
        final List<Refund> refunds = new CopyOnWriteArrayList<>();
        final List<String> messageIds = new CopyOnWriteArrayList<>();
        /** The {@code tenant} header of the refunds that carried one, by refund id. */
        final Map<Long, String> tenants = new ConcurrentHashMap<>();

        @Subscriber(QUEUE)
        void receive(Refund refund, Delivery delivery) {
            messageIds.add(delivery.messageId());
            Object tenant = delivery.header("tenant");
            if (tenant != null) {
                tenants.put(refund.id(), tenant.toString());
            }
            refunds.add(refund);
        }
    }
}
