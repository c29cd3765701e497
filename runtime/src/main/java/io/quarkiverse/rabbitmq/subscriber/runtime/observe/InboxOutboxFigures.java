package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

/**
 * The inbox's and the outbox's figures, for readiness, metrics and the Dev UI. They reach it through this interface
 * only (as an {@code Instance}, unsatisfied in applications without Agroal and JTA), so none of them loads a JTA
 * class.
 */
public interface InboxOutboxFigures {

    /** Whether a subscription has an inbox, so the tables are in use (nothing else here means anything otherwise). */
    boolean active();

    /** The outbox as the relay's last pass found it; no query. */
    Outbox outbox();

    /** The inbox as it is now: one query, for the Dev UI. */
    Inbox inbox();

    /**
     * Why readiness is DOWN: the oldest row waiting in the outbox is older than
     * {@code quarkus.rabbitmq-subscriber.outbox.stuck-after}; null while it drains.
     */
    String stuck();

    /**
     * @param relaying whether this instance's relay runs (without it the figures stay empty)
     * @param waiting rows waiting (counted up to 100,000)
     * @param oldestAgeMillis the oldest row's age on the runtime's clock; null when none waits
     * @param lastFailure why the relay's last pass could not publish a group or read the table; null when it could
     * @param relayed groups this instance's relay published since it started
     */
    record Outbox(boolean relaying, long waiting, Long oldestAgeMillis, String lastFailure, long relayed) {
    }

    /**
     * @param rows rows (counted up to 100,000); -1 when they could not be read
     * @param oldestMillis when the oldest was handled; null when there is none
     * @param problem why they could not be read; null when they could
     */
    record Inbox(long rows, Long oldestMillis, String problem) {
    }
}
