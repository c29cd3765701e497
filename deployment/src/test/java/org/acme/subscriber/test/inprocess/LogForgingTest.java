package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** A message id with CR, LF and ESC in it is escaped in the ERROR about its body: it forges no log line. */
class LogForgingTest extends BrokerScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Test
    void theIdIsEscaped() throws Exception {
        try (CapturedLogs logs = new CapturedLogs()) {
            try (BrokerChannel channel = session.connection().createChannel()) {
                channel.publish("", "b.forging", false, new AMQP.BasicProperties.Builder()
                        .messageId("m-1\r\nERROR [fake] all is lost\u001b[2J").build(),
                        "not json\nINFO forged".getBytes(StandardCharsets.UTF_8));
            }
            broker.awaitIdle();
            String line = logs.errors().stream().filter(error -> error.contains("Cannot decode")).findFirst()
                    .orElseThrow(() -> new AssertionError(logs.errors()));
            assertTrue(line.contains("message-id m-1\\r\\nERROR [fake] all is lost\\e[2J"), line);
            assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b"), line);
        }
    }

    public record Order(String id) {
    }

    public static class Handlers {
        @Subscriber("b.forging")
        void order(Order order) {
        }
    }
}
