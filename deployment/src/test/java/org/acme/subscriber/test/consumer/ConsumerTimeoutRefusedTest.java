package org.acme.subscriber.test.consumer;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A consumer's own {@code x-consumer-timeout} on a broker older than 4.3 (skipped on 4.3): such a broker ignores it,
 * so startup is refused, naming the version, and the connection is released.
 */
@Tag("wire")
class ConsumerTimeoutRefusedTest {

    static final String CONNECTION = "consumer-timeout-refused-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker wire = WireBroker.queues("t.ct.old").needsBeforeRabbitMq43().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION,
                    "Queue 't.ct.old' sets consumer argument x-consumer-timeout, which RabbitMQ ",
                    " ignores: a consumer's own timeout came with RabbitMQ 4.3"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handler {
        @Subscriber(value = "t.ct.old", type = QueueType.QUORUM, consumerArguments = "x-consumer-timeout=60000")
        void handle(String body) {
        }
    }
}
