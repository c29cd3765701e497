package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

/**
 * The reasons a subscriber is paused, as opposed to held back for a moment by one of its bounds: the application's
 * {@code Subscriptions.pause} and its kill switch. Both hold it back through its supervisor, across losses and
 * resubscriptions, until a resume.
 */
public final class Pauses {

    /** What {@code Subscriptions.pause} holds the subscriber back as. */
    public static final String BY_APPLICATION = "paused by the application";

    private Pauses() {
    }

    /** Whether the application or the kill switch paused it. */
    public static boolean paused(SubscriberSupervisor supervisor) {
        var holding = supervisor.heldBackBy();
        return holding.contains(BY_APPLICATION) || holding.contains(KillSwitch.HOLDING);
    }
}
