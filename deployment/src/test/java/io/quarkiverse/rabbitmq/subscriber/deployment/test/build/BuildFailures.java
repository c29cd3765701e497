package io.quarkiverse.rabbitmq.subscriber.deployment.test.build;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;

/** Asserts that a failed build's exception says each expected thing. */
final class BuildFailures {

    private BuildFailures() {
    }

    static Consumer<Throwable> mentions(String... fragments) {
        return failure -> {
            String text = render(failure);
            for (String fragment : fragments) {
                assertTrue(text.contains(fragment), () -> "Expected the build failure to mention \"" + fragment
                        + "\", but it said:\n" + text);
            }
        };
    }

    private static String render(Throwable failure) {
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
