package org.acme.subscriber.test.serverretry;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The server's delayed retry on a broker older than 4.3 (3.10.8, 4.0.5; skipped on 4.3, where
 * ServerRetryDelayOnRabbitMqTest runs): such a broker accepts the queue arguments and ignores them, so every retry
 * would come back at once. Startup is refused before anything is declared, naming the broker's version and what to
 * use instead, and the connection is released.
 */
@Tag("wire")
class ServerRetryDelayRefusedTest {

    static final String CONNECTION = "server-retry-refused-" + ProcessHandle.current().pid();

    @RegisterExtension
    @Order(1)
    static final WireBroker wire = WireBroker.queues(ServerRetryHandlers.QUEUES).needsBeforeRabbitMq43().givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ServerRetryHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .assertException(Failures.startupRefused(CONNECTION,
                    "Queue 'srd.payouts' sets retryDelay (the server's delayed retry), which RabbitMQ ",
                    " does not have: it came with RabbitMQ 4.3",
                    "use backoff = @Backoff(initial = \"1s\") with delay = DLX_TTL"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }
}
