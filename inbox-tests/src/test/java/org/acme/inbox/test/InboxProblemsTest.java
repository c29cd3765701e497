package org.acme.inbox.test;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Backoff;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;

/**
 * Inbox subscriptions that cannot keep the inbox's promise fail the build, every problem at once, each naming its
 * method: a handler on the event loop, an asynchronous result under {@code @Blocking}, an in-service delay with a handler that
 * may wait (an {@code Outcome}, a {@code @Backoff}), and an
 * inbox datasource that is not configured. The application has a datasource and JTA.
 */
class InboxProblemsTest {

    @RegisterExtension
    static final QuarkusUnitTest build = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.datasource.db-kind", "postgresql")
            .overrideConfigKey("quarkus.datasource.devservices.enabled", "false")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.inbox.datasource", "orders")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .assertException(failure -> {
                StringBuilder text = new StringBuilder();
                for (Throwable t = failure; t != null; t = t.getCause()) {
                    text.append(t.getMessage()).append('\n');
                    for (Throwable suppressed : t.getSuppressed()) {
                        text.append(suppressed.getMessage()).append('\n');
                    }
                }
                for (String expected : List.of(
                        "Handlers#onLoop(java.lang.String) has inbox = true but runs on the event loop",
                        "Handlers#later(java.lang.String) has inbox = true but returns a Uni or CompletionStage",
                        "Handlers#waits(java.lang.String) has inbox = true and delay = IN_SERVICE and returns Outcome",
                        "Handlers#backsOff(java.lang.String) has inbox = true and delay = IN_SERVICE and a @Backoff",
                        "the inbox datasource 'orders' is not configured (quarkus.rabbitmq-subscriber.inbox.datasource)"
                                + ". Configure it with quarkus.datasource.\"orders\".db-kind and jdbc.url, or name one "
                                + "of [<default>]")) {
                    assertTrue(text.toString().contains(expected), () -> "Expected \"" + expected + "\" in:\n" + text);
                }
            });

    @Test
    void buildFails() {
        fail("the build should have failed");
    }

    static class Handlers {
        @Subscriber(value = "b.inbox.loop", inbox = true)
        @NonBlocking
        void onLoop(String body) {
        }

        @Subscriber(value = "b.inbox.later", inbox = true)
        @Blocking
        Uni<Void> later(String body) {
            return Uni.createFrom().voidItem();
        }

        @Subscriber(value = "b.inbox.waits", inbox = true)
        Outcome waits(String body) {
            return Outcome.ack();
        }

        @Subscriber(value = "b.inbox.backoff", maxAttempts = 3, inbox = true, backoff = @Backoff(initial = "1s"))
        void backsOff(String body) {
        }

    }
}
