package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A quorum queue an operator declared, with their own {@code x-delivery-limit} of 2 and a dead-letter route, consumed
 * with {@code declare-topology=false} and no cap of the subscription's: a failing message is requeued at every
 * delivery, so the server's limit ends it after three deliveries and its route dead-letters it (reason
 * {@code delivery_limit}). Before, the no-cap rule rejected it at its second delivery and the operator's limit never
 * applied.
 */
@Tag("wire")
class QuorumOperatorLimitTest {

    static final String QUEUE = "t.quorum.operator";
    static final String DEAD = QUEUE + ".dead";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, DEAD).before(admin -> {
        admin.declare(DEAD, Map.of());
        admin.declare(QUEUE, Map.of("x-queue-type", "quorum", "x-delivery-limit", 2,
                "x-dead-letter-exchange", "", "x-dead-letter-routing-key", DEAD));
    }).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.declare-topology", "false");

    @Inject
    Handler handler;

    @Test
    void theOperatorsLimitEndsTheLoop() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "fails", "op-1"));
        await().atMost(Duration.ofSeconds(20)).until(() -> RabbitAdmin.withResult(admin -> admin.depth(DEAD)) == 1);
        assertEquals(3, handler.deliveries.size(), "the limit of 2 redeliveries gives three deliveries");
        GetResponse dead = RabbitAdmin.withResult(admin -> admin.drain(DEAD)).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> death = ((List<Map<String, Object>>) dead.getProps().getHeaders().get("x-death")).get(0);
        assertEquals("delivery_limit", death.get("reason").toString());
        assertEquals(0L, (long) RabbitAdmin.withResult(admin -> admin.depth(QUEUE)));
    }

    public static class Handler {
        final Queue<Boolean> deliveries = new ConcurrentLinkedQueue<>();

        @Subscriber(value = QUEUE, type = QueueType.QUORUM)
        void handle(String body, Delivery delivery) {
            deliveries.add(delivery.redelivered());
            throw new IllegalStateException("always fails");
        }
    }
}
