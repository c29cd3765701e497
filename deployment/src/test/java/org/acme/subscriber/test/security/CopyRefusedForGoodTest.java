package org.acme.subscriber.test.security;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A copy RabbitMQ refuses for what it is, for good: the operator lowered {@code max_message_size} while a larger
 * message waited in the queue, so every publish of it is refused now. Before, each refusal closed the copies'
 * channel, the message came back, its handler ran and its copy was refused again, for ever, the subscription
 * resubscribing each time with the queue's other messages behind it. Now the refused message is settled as received
 * when it comes back (to the dead-letter queue, refused too here: same body), then rejected without requeue, with an
 * ERROR naming it; the other messages are handled.
 */
@Tag("wire")
@Tag("serial")
class CopyRefusedForGoodTest {

    static final String ORDERS = "t.refused.orders";
    static final String DEAD = "t.refused.orders.dead";
    static final int LIMIT = 1_000;
    static final String ID = "too-large-for-now";

    /** Changes what the whole broker takes: never beside another such class. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource brokerWide = ExclusiveResource.named("broker-wide");

    static final String LIMIT_BEFORE = "org.acme.refused.limit-before";
    /** The application's log lines from before its start (see CapturedLogs.beginShared). */
    static final String LOGS = "org.acme.refused.logs";

    /** The messages are in the queue before the limit is lowered; the application starts after. */
    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(ORDERS, DEAD).givesUrl().before(admin -> {
        // From before the start: the refusals may all happen before the test method runs.
        CapturedLogs.beginShared(LOGS);
        admin.declare(ORDERS, Map.of());
        admin.confirmPublishes();
        admin.publishRaw(ORDERS, "x".repeat(2 * LIMIT).getBytes(StandardCharsets.UTF_8),
                new AMQP.BasicProperties.Builder().messageId(ID).build());
        for (int i = 0; i < 5; i++) {
            admin.publishRaw(ORDERS, ("small-" + i).getBytes(StandardCharsets.UTF_8),
                    new AMQP.BasicProperties.Builder().messageId("small-" + i).build());
        }
        admin.awaitConfirms();
        // RabbitMQ 3.x reads the limit from the application's environment as a channel opens; 4.x from a persistent
        // term, at each publish. Both are set, and both restored after.
        System.setProperty(LIMIT_BEFORE, RabbitAdmin.rabbitmqctl("eval",
                "{application:get_env(rabbit, max_message_size), persistent_term:get(max_message_size, none)}.").trim());
        RabbitAdmin.rabbitmqctl("eval", "application:set_env(rabbit, max_message_size, " + LIMIT + "), "
                + "persistent_term:put(max_message_size, " + LIMIT + ").");
    });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.refused-copy-pause", "100ms");

    @AfterAll
    static void restoreLimit() throws Exception {
        CapturedLogs.endShared(LOGS);
        // {{ok,134217728},none} on 3.10, {{ok,134217728},134217728} on 4.0; undefined where never set.
        java.util.regex.Matcher before = java.util.regex.Pattern.compile("\\{(\\{ok,(\\d+)\\}|undefined),(\\d+|none)\\}")
                .matcher(System.getProperty(LIMIT_BEFORE, ""));
        if (before.find()) {
            RabbitAdmin.rabbitmqctl("eval", (before.group(2) == null ? "application:unset_env(rabbit, max_message_size)"
                    : "application:set_env(rabbit, max_message_size, " + before.group(2) + ")") + ", "
                    + (before.group(3).equals("none") ? "persistent_term:erase(max_message_size)"
                            : "persistent_term:put(max_message_size, " + before.group(3) + ")")
                    + ".");
        }
    }

    @Inject
    Handlers handlers;

    @Test
    void theRefusedMessageEndsOnceAndTheOthersAreHandled() throws Exception {
        await().atMost(Duration.ofSeconds(60)).until(() -> handlers.acked() >= 5 && CapturedLogs.sharedErrors(LOGS)
                .stream().anyMatch(line -> line.contains(ID) && line.contains("Rejecting it without requeue")));
        // It stays ended: no more attempts once the queue is empty.
        int attempts = handlers.attemptsOf(ID);
        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                .until(() -> handlers.attemptsOf(ID) == attempts);
        // First delivery: its copy refused; back: as received to the dead-letter queue, refused too; back: rejected.
        assertTrue(attempts >= 2 && attempts <= 3, "attempts of the refused message: " + attempts);
        for (int i = 0; i < 5; i++) {
            // Once, or twice where its ack had not left when a refusal closed the channels (at least once).
            int handled = handlers.attemptsOf("small-" + i);
            assertTrue(handled >= 1 && handled <= 2, "small-" + i + " handled " + handled + " times");
        }
        RabbitAdmin.with(admin -> {
            assertEquals(0, admin.depth(ORDERS));
            assertEquals(0, admin.depth(DEAD), "the dead letter as received was refused too");
        });
    }

    @ApplicationScoped
    public static class Handlers {
        private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        private final AtomicInteger acked = new AtomicInteger();

        int attemptsOf(String id) {
            AtomicInteger count = attempts.get(id);
            return count == null ? 0 : count.get();
        }

        int acked() {
            return acked.get();
        }

        @Subscriber(value = ORDERS, maxAttempts = 5, deadLetter = DEAD)
        Outcome handle(String body, io.quarkiverse.rabbitmq.subscriber.Delivery delivery) {
            String id = delivery.messageId();
            attempts.computeIfAbsent(id, ignored -> new AtomicInteger()).incrementAndGet();
            if (id.equals(ID)) {
                return Outcome.retry();
            }
            acked.incrementAndGet();
            return Outcome.ack();
        }
    }
}
