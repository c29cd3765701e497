package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Each outcome, observed on the wire with a plain amqp-client. The queues are declared by the test with a dead-letter
 * route to {@code <queue>.dead}, so declaration is off and the extension checks them passively.
 */
@Tag("wire")
class OutcomeWireTest {

    static final String[] QUEUES = { "t.outcome.ack", "t.outcome.retry", "t.outcome.drop", "t.outcome.void",
            "t.outcome.throws", "t.outcome.uni", "t.outcome.uni-fails", "t.outcome.cs" };

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).withDeadLetterQueues().before(admin -> {
        for (String queue : QUEUES) {
            admin.declareWithDeadLetterQueue(queue);
        }
    }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false");

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void ackRemovesTheMessage() throws Exception {
        try (RabbitAdmin admin = new RabbitAdmin()) {
            admin.publish("t.outcome.ack", "a");
            await().until(() -> handlers.calls("t.outcome.ack") == 1);
            await().until(() -> status.inFlight() == 0);
            assertEquals(0, admin.depth("t.outcome.ack"));
            assertEquals(0, admin.depth("t.outcome.ack.dead"));
            // Nothing comes back: the ack removed it for good.
            await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                    .until(() -> handlers.calls("t.outcome.ack") == 1);
        }
    }

    @Test
    void retryRedeliversWithTheRedeliveredFlag() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.retry", "r"));
        await().until(() -> handlers.calls("t.outcome.retry") == 2);
        assertEquals(List.of(false, true), handlers.redelivered("t.outcome.retry"));
        await().until(() -> status.inFlight() == 0);
        RabbitAdmin.with(admin -> {
            assertEquals(0, admin.depth("t.outcome.retry"));
            assertEquals(0, admin.depth("t.outcome.retry.dead"));
        });
    }

    @Test
    void dropRejectsWithoutRequeueIntoTheDeadLetterExchange() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.drop", "d", "drop-1"));
        RabbitAdmin.with(admin -> {
            await().until(() -> admin.depth("t.outcome.drop.dead") == 1);
            List<GetResponse> dead = admin.drain("t.outcome.drop.dead");
            assertEquals("d", RabbitAdmin.body(dead.get(0)));
            assertEquals("drop-1", dead.get(0).getProps().getMessageId());
            assertTrue(dead.get(0).getProps().getHeaders().get("x-death").toString().contains("reason=rejected"));
            assertEquals(0, admin.depth("t.outcome.drop"));
        });
        assertEquals(1, handlers.calls("t.outcome.drop"));
    }

    @Test
    void voidAcksWhenItReturns() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.void", "v"));
        await().until(() -> handlers.calls("t.outcome.void") == 1);
        await().until(() -> status.inFlight() == 0);
        RabbitAdmin.with(admin -> {
            assertEquals(0, admin.depth("t.outcome.void"));
            assertEquals(0, admin.depth("t.outcome.void.dead"));
        });
    }

    @Test
    void anExceptionRequeuesOnceThenRejects() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.throws", "boom"));
        RabbitAdmin.with(admin -> await().until(() -> admin.depth("t.outcome.throws.dead") == 1));
        assertEquals(2, handlers.calls("t.outcome.throws"));
        assertEquals(List.of(false, true), handlers.redelivered("t.outcome.throws"));
        RabbitAdmin.with(admin -> assertEquals(0, admin.depth("t.outcome.throws")));
    }

    @Test
    void uniOutcomeIsSettled() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.uni", "u"));
        await().until(() -> handlers.calls("t.outcome.uni") == 1);
        await().until(() -> status.inFlight() == 0);
        RabbitAdmin.with(admin -> assertEquals(0, admin.depth("t.outcome.uni")));
    }

    @Test
    void aFailedUniIsTreatedAsAnException() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.uni-fails", "uf"));
        RabbitAdmin.with(admin -> await().until(() -> admin.depth("t.outcome.uni-fails.dead") == 1));
        assertEquals(2, handlers.calls("t.outcome.uni-fails"));
    }

    @Test
    void completionStageVoidAcks() {
        RabbitAdmin.with(admin -> admin.publish("t.outcome.cs", "c"));
        await().until(() -> handlers.calls("t.outcome.cs") == 1);
        await().until(() -> status.inFlight() == 0);
        RabbitAdmin.with(admin -> assertEquals(0, admin.depth("t.outcome.cs")));
    }

    public static class Handlers {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<String> redelivered = new CopyOnWriteArrayList<>();

        long calls(String queue) {
            return calls.stream().filter(queue::equals).count();
        }

        List<Boolean> redelivered(String queue) {
            return redelivered.stream().filter(r -> r.startsWith(queue + "=")).map(r -> r.endsWith("true")).toList();
        }

        private void record(Delivery delivery) {
            redelivered.add(delivery.queue() + "=" + delivery.redelivered());
            calls.add(delivery.queue());
        }

        @Subscriber("t.outcome.ack")
        Outcome ack(String body, Delivery delivery) {
            record(delivery);
            return Outcome.ack();
        }

        @Subscriber("t.outcome.retry")
        Outcome retry(String body, Delivery delivery) {
            record(delivery);
            return delivery.redelivered() ? Outcome.ack() : Outcome.retry();
        }

        @Subscriber("t.outcome.drop")
        Outcome drop(Delivery delivery, byte[] body) {
            record(delivery);
            return Outcome.drop();
        }

        @Subscriber("t.outcome.void")
        void plain(String body, Delivery delivery) {
            record(delivery);
        }

        @Subscriber("t.outcome.throws")
        Outcome throwing(String body, Delivery delivery) {
            record(delivery);
            throw new IllegalArgumentException("handler failure for test");
        }

        @Subscriber("t.outcome.uni")
        Uni<Outcome> uni(String body, Delivery delivery) {
            record(delivery);
            return Uni.createFrom().item(Outcome.ack());
        }

        @Subscriber("t.outcome.uni-fails")
        Uni<Void> uniFails(String body, Delivery delivery) {
            record(delivery);
            return Uni.createFrom().failure(new IllegalStateException("async failure for test"));
        }

        @Subscriber("t.outcome.cs")
        CompletionStage<Void> completionStage(String body, Delivery delivery) {
            record(delivery);
            return CompletableFuture.completedFuture(null);
        }
    }
}
