package org.acme.subscriber.test.build;

import static org.junit.jupiter.api.Assertions.fail;

import org.acme.subscriber.test.Failures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code inbox = true} in an application without a JDBC datasource (this module's tests have neither quarkus-agroal
 * nor quarkus-narayana-jta) fails the build, naming the methods and what to add.
 */
class InboxWithoutDatasourceTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Failures.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.queues.\"b.inbox.overridden\".inbox", "true")
            .assertException(Failures.mentions(
                    "Handlers#orders(java.lang.String), org.acme.subscriber.test.build.InboxWithoutDatasourceTest$"
                            + "Handlers#overridden(java.lang.String) have inbox = true: the inbox is a table in the "
                            + "application's database, and the application has no JDBC datasource. Add quarkus-agroal "
                            + "and a JDBC driver"));

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.inbox.orders", inbox = true)
        void orders(String body) {
        }

        @Subscriber("b.inbox.overridden")
        void overridden(String body) {
        }
    }
}
