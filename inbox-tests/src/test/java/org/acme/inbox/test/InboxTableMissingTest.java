package org.acme.inbox.test;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireDatabase;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code inbox.schema=validate} where the table is not there (an operator's migration that did not run): startup
 * refuses, naming the table and giving the DDL that makes it.
 */
@Tag("database")
class InboxTableMissingTest {

    @RegisterExtension
    @Order(1)
    static final WireDatabase database = WireDatabase.schema("t_inbox_table_missing");

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.schema", "validate")
            .assertException(failure -> {
                StringBuilder text = new StringBuilder();
                for (Throwable t = failure; t != null; t = t.getCause()) {
                    text.append(t.getMessage()).append('\n');
                }
                assertTrue(text.toString().contains("The inbox table 'rabbitmq_subscriber_inbox' does not exist; "
                        + "the outbox table 'rabbitmq_subscriber_outbox' does not exist on datasource (the default one) "
                        + "(quarkus.rabbitmq-subscriber.inbox.schema=validate). Create them with: CREATE TABLE IF NOT "
                        + "EXISTS rabbitmq_subscriber_inbox"), text::toString);
            });

    @Test
    void startupFails() {
        fail("the application should not have started");
    }

    static class Handler {
        @Subscriber(value = "t.inbox.validate", inbox = true)
        void handle(String body) {
        }
    }
}
