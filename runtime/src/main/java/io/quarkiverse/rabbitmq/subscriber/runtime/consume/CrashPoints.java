package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

/**
 * Where a crash test of a packaged application stops the JVM at once, as {@code kill -9} would, on the path of an inbox
 * delivery: system property {@value #PROPERTY} names one point. For tests only, never set in production; unset, each
 * point costs one comparison.
 */
public final class CrashPoints {

    public static final String PROPERTY = "rabbitmq-subscriber.test.crash-at";
    /** The handler acked; its transaction (inbox row, effects, outbox rows) is not committed. */
    public static final String BEFORE_COMMIT = "before-commit";
    /** Committed; its outputs are not published. */
    public static final String AFTER_COMMIT = "after-commit";
    /** Its outputs are confirmed; their outbox rows are not deleted and the delivery is not acked. */
    public static final String AFTER_PUBLISH = "after-publish";

    private static final String AT = System.getProperty(PROPERTY);

    private CrashPoints() {
    }

    public static void reached(String point) {
        if (point.equals(AT)) {
            System.err.println("Crash point " + point + " reached (" + PROPERTY + "): halting");
            Runtime.getRuntime().halt(137);
        }
    }
}
