package org.acme.subscriber.test.topology;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/** A name whose property is not set, and that gives no default, stops startup naming the property and the method. */
class NameWithoutPropertyTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .assertException(Failures.mentions("Handlers#orders(java.lang.String) names '${t.unset.queue}', but the "
                    + "configuration has no property 't.unset.queue' and the expression gives no default"));

    @Test
    void startupFails() {
        fail("startup should have failed");
    }

    public static class Handlers {
        @Subscriber("${t.unset.queue}")
        void orders(String body) {
        }
    }
}
