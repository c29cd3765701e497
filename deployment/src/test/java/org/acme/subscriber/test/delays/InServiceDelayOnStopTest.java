package org.acme.subscriber.test.delays;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

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

/**
 * A graceful stop publishes the IN_SERVICE copies still waiting, at once: the copy of a message told to come back in
 * an hour is in its queue, count raised, once the application has stopped (checked after the stop).
 */
@Tag("wire")
class InServiceDelayOnStopTest {

    static final String QUEUE = "t.inservice.stop";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(InServiceDelayOnStopTest::theCopyWaitsInItsQueue)
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .setLogRecordPredicate(record -> record.getMessage() != null
                    && record.getMessage().contains("wait in this service until due"))
            .assertLogRecords(records -> assertEquals(List.of("Queue 't.inservice.stop': delayed copies (retryAfter) "
                    + "wait in this service until due (delay IN_SERVICE), and a graceful stop publishes them at once; "
                    + "delay = DLX_TTL keeps them in RabbitMQ instead"),
                    records.stream().map(record -> String.format(record.getMessage(), record.getParameters()))
                            .toList(),
                    "one startup INFO line per IN_SERVICE subscription"));

    @Inject
    SubscriberStatus status;

    @Test
    void aCopyIsHeldForAnHour() {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "busy"));
        await().until(() -> status.heldCopies(QUEUE) == 1);
    }

    /** Runs after the application stopped, before the fixture deletes the queue. */
    static void theCopyWaitsInItsQueue() {
        RabbitAdmin.with(admin -> {
            List<GetResponse> left = admin.drain(QUEUE);
            assertEquals(1, left.size(), "the held copy was published on stop");
            assertEquals("busy", RabbitAdmin.body(left.get(0)));
            assertEquals(2, ((Number) left.get(0).getProps().getHeaders().get("x-retry-count")).intValue());
        });
    }

    public static class Handler {
        @Subscriber(QUEUE)
        Outcome handle(String body, Delivery delivery) {
            return Outcome.retryAfter(Duration.ofHours(1));
        }
    }
}
