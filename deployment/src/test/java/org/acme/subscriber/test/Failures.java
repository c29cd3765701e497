package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;

import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;

/** Asserts that a failed build's or startup's exception (its causes included) says each expected thing. */
public final class Failures {

    private Failures() {
    }

    public static Consumer<Throwable> mentions(String... fragments) {
        return failure -> {
            String text = render(failure);
            for (String fragment : fragments) {
                assertTrue(text.contains(fragment), () -> "Expected the failure to mention \"" + fragment
                        + "\", but it said:\n" + text);
            }
        };
    }

    /**
     * A refused startup: the failure says each expected thing, and the connection named {@code connection} is gone
     * from the broker (Quarkus fires no ShutdownEvent for an application that failed to start, so the engine must
     * release it itself).
     */
    public static Consumer<Throwable> startupRefused(String connection, String... fragments) {
        // rabbitmqctl answers slowly while the rest of a CI run loads both cores: a generous deadline.
        return mentions(fragments).andThen(failure -> org.awaitility.Awaitility.await()
                .atMost(java.time.Duration.ofSeconds(30))
                .until(() -> RabbitAdmin.connectionsNamed(connection).isEmpty()));
    }

    public static String render(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            text.append(t.getMessage()).append('\n');
            for (Throwable suppressed : t.getSuppressed()) {
                text.append(render(suppressed));
            }
        }
        return text.toString();
    }
}
