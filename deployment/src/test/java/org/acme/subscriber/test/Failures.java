package org.acme.subscriber.test;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;

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
