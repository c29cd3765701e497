package org.acme.subscriber.test.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;

import jakarta.inject.Inject;

import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The request/reply scenarios on the in-process broker: no waiting, it settles everything that can happen now. */
class RequestReplyInProcessTest extends RequestReplyScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    /** Its clock is paused: the request waits until the clock reaches its expiry. */
    @Override
    void expiresWithItsTimeout(String queue) {
        assertEquals(1, depth(queue), "the request waits, until the clock reaches its expiry");
        broker.advance(Duration.ofMillis(500));
        assertEquals(0, depth(queue), "expired with its timeout");
    }
}
