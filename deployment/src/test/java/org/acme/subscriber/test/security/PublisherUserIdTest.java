package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.BrokerRabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A publisher that sets {@code user-id} (so that consumers can trust who sent a message) while the application logs in
 * as another user. RabbitMQ refuses a publish whose {@code user-id} is not its publisher's: copies that kept it were
 * refused for ever (a capped retry ran its handler 32+ times and never reached its dead-letter queue; a held copy was
 * refused every second and each refusal failed the application's own confirmed sends that shared its channel). Copies
 * now go under the application's user, the publisher's in {@code x-original-user-id}, and the handler is told the
 * publisher's on every attempt.
 */
@Tag("wire")
class PublisherUserIdTest {

    static final String USER = "t-userid-app";
    static final String ORDERS = "t.userid.orders";
    static final String DEAD = "t.userid.orders.dead";
    static final String LATER = "t.userid.later";
    static final String APP_SENDS = "t.userid.sends";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, DEAD, LATER, APP_SENDS).givesUrl()
            .before(admin -> {
                admin.declare(APP_SENDS, java.util.Map.of());
                NarrowUser.create(USER, "^t\\.userid\\.", "^(amq\\.default|t\\.userid\\..*)$", "^t\\.userid\\.");
            });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, NarrowUser.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.username", USER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.password", NarrowUser.PASSWORD);

    @AfterAll
    static void deleteUser() throws Exception {
        NarrowUser.delete(USER);
    }

    @Inject
    Handlers handlers;

    @Inject
    RabbitPublisher publisher;

    @Inject
    BrokerRabbitPublisher runtimePublisher;

    @Test
    void aCappedRetryReachesItsDeadLetterQueueAfterItsAttempts() throws Exception {
        publishAsGuest(ORDERS, "order-1");
        await().atMost(Duration.ofSeconds(20)).until(() -> depth(DEAD) == 1);
        // Exactly its three attempts, not one more, and each saw the publisher.
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> handlers.orders().size() == 3);
        assertEquals(List.of("guest@1", "guest@2", "guest@3"), handlers.orders());
        GetResponse dead = RabbitAdmin.withResult(admin -> admin.drain(DEAD)).get(0);
        assertEquals(USER, dead.getProps().getUserId(), "the dead letter goes under the application's user");
        assertEquals("guest", String.valueOf(dead.getProps().getHeaders().get(Delivery.ORIGINAL_USER_ID_HEADER)));
        assertEquals(0, depth(ORDERS));
    }

    @Test
    void aHeldCopyIsPublishedAndTheApplicationsSendsGoOn() throws Exception {
        publishAsGuest(LATER, "later-1");
        await().atMost(Duration.ofSeconds(20)).until(() -> handlers.later().size() == 2);
        assertEquals(List.of("guest@1", "guest@2"), handlers.later(), "the delayed copy came back, from the publisher");
    }

    @Test
    void aCopyRabbitMqRefusesNeverFailsTheApplicationsOwnSends() throws Exception {
        // The application sends, confirmed, while held copies RabbitMQ refuses (as one that kept another user's
        // user-id was) close their channel now and then: on a shared channel each refusal failed the sends in flight.
        List<CompletableFuture<Void>> sends = new java.util.ArrayList<>();
        List<CompletableFuture<Void>> refusals = new java.util.ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sends.add(publisher.sendConfirmed(OutgoingMessage.toQueue(APP_SENDS).payload("send-" + i))
                    .subscribeAsCompletionStage());
            if (i % 20 == 10) {
                refusals.add(runtimePublisher.publishConfirmed("", APP_SENDS,
                        new AMQP.BasicProperties.Builder().userId("someone-else").build(), new byte[0]));
            }
        }
        for (CompletableFuture<Void> send : sends) {
            send.get(20, TimeUnit.SECONDS);
        }
        for (CompletableFuture<Void> refused : refusals) {
            ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                    () -> refused.get(20, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, failure.getCause());
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> depth(APP_SENDS) == 200);
    }

    private static void publishAsGuest(String queue, String body) {
        RabbitAdmin.with(admin -> admin.publishRaw(queue, body.getBytes(StandardCharsets.UTF_8),
                new AMQP.BasicProperties.Builder().userId("guest").messageId(body).build()));
    }

    private static long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> orders = new CopyOnWriteArrayList<>();
        private final List<String> later = new CopyOnWriteArrayList<>();

        List<String> orders() {
            return orders;
        }

        List<String> later() {
            return later;
        }

        @Subscriber(value = ORDERS, maxAttempts = 3, deadLetter = DEAD)
        Outcome order(String body, Delivery delivery) {
            orders.add(delivery.properties().userId() + "@" + delivery.attempt());
            return Outcome.retry();
        }

        @Subscriber(LATER)
        Outcome later(String body, Delivery delivery) {
            later.add(delivery.properties().userId() + "@" + delivery.attempt());
            return later.size() == 1 ? Outcome.retryAfter(Duration.ofMillis(300)) : Outcome.ack();
        }
    }
}
