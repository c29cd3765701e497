package org.acme.subscriber.test.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A stream subscription where nothing answers the stream protocol (a broker without the rabbitmq_stream plugin, as the
 * stock 3.10.8; here a port nothing listens on, so every broker runs it the same): the startup fails, naming the
 * stream, the address it tried and the plugin to enable.
 */
@Tag("wire")
class StreamWithoutItsListenerTest {

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.stream.unheard").givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", "1")
            .assertException(thrown -> {
                Throwable cause = thrown;
                while (cause != null && !(cause instanceof IllegalStateException)) {
                    cause = cause.getCause();
                }
                String message = cause == null ? String.valueOf(thrown) : cause.getMessage();
                assertTrue(message.contains("Stream 't.stream.unheard': RabbitMQ does not answer the stream protocol "
                        + "on 127.0.0.1:1") && message.contains("enable the rabbitmq_stream plugin"), message);
            });

    @Test
    void startupFails() {
        fail("the startup should have failed");
    }

    public static class Handlers {
        @Subscriber(value = "t.stream.unheard", type = QueueType.STREAM)
        void on(String body) {
        }
    }
}
