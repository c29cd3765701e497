package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * RabbitMQ closes a subscriber's channel with an error (here PRECONDITION_FAILED: the test makes the broker's channel
 * process see an ack of an unknown delivery tag, as a buggy client would send): one ERROR naming the method, the queue
 * and the broker's reason; readiness says so; the subscriber consumes again on a fresh channel and the next message is
 * handled. The connection stays up.
 */
@Tag("wire")
class ChannelErrorTest {

    static final String QUEUE = "t.channel-error";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms");

    @Inject
    Handler handler;

    @Inject
    SubscriberStatus status;

    @Test
    void aChannelClosedByTheBrokerIsReopenedAndLoggedOnce() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "before"));
        await().until(() -> handler.received.contains("before"));
        try (CapturedLogs logs = new CapturedLogs()) {
            // The broker's own channel process is told to ack a tag it never delivered: it closes the channel with 406.
            RabbitAdmin.rabbitmqctl("eval", "{ok, Q} = rabbit_amqqueue:lookup(rabbit_misc:r(<<\"/\">>, queue, <<\""
                    + QUEUE + "\">>)), [gen_server2:cast(element(1, C), {method, {'basic.ack', 999999, false}, none, noflow}) "
                    + "|| C <- rabbit_amqqueue:consumers(Q)].");
            await().atMost(Duration.ofSeconds(10)).until(() -> logs.infos().stream()
                    .anyMatch(line -> line.contains("consumes queue '" + QUEUE + "' again")));
            List<String> errors = logs.errors();
            assertEquals(1, errors.size(), errors::toString);
            assertTrue(errors.get(0).contains(QUEUE) && errors.get(0).contains("Handler#handle")
                    && errors.get(0).contains("PRECONDITION_FAILED - unknown delivery tag 999999"), errors.get(0));
            assertEquals(List.of(), logs.warnings());
        }
        await().until(() -> status.notReady().isEmpty());
        RabbitAdmin.with(admin -> assertEquals(1, admin.consumers(QUEUE)));
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "after"));
        await().until(() -> handler.received.contains("after"));
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
