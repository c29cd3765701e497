package org.acme.subscriber.test.serverretry;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The in-process broker following RabbitMQ 4.0 refuses the server's delayed retry at startup as a real 4.0.5 is
 * refused: it names the version it follows.
 */
class ServerRetryDelayRefusedInProcessTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(ServerRetryHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.in-process.server-version", "4")
            .assertException(Failures.mentions(
                    "Queue 'srd.payouts' sets retryDelay (the server's delayed retry), which RabbitMQ 4.0.5 does not "
                            + "have: it came with RabbitMQ 4.3"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }
}
