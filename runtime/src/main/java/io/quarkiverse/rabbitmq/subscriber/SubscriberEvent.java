package io.quarkiverse.rabbitmq.subscriber;

import java.time.Duration;

/**
 * What happened to a subscriber, fired as a CDI event, as Quarkus's scheduler fires its own: observe one kind
 * ({@code void on(@Observes SubscriberEvent.Paused paused)}) or all ({@code @Observes SubscriberEvent}). Synchronous
 * observers run on a worker thread (or the thread that paused or resumed), never on an event loop; asynchronous ones
 * ({@code @ObservesAsync}) are told too.
 */
public sealed interface SubscriberEvent {

    /** The queue of the subscriber it happened to. */
    String queue();

    /** {@link Subscriptions#pause} paused the subscriber: it takes no deliveries until resumed. */
    record Paused(String queue) implements SubscriberEvent {
    }

    /** The subscriber takes deliveries again: {@link Subscriptions#resume}, or its kill switch's pause is over. */
    record Resumed(String queue) implements SubscriberEvent {
    }

    /**
     * Its handler failed {@code failures} times in a row: the kill switch pauses the subscriber for {@code pause}
     * ({@code quarkus.rabbitmq-subscriber.queues."<queue>".kill-switch.*}), then it resumes.
     */
    record KillSwitchTripped(String queue, int failures, Duration pause) implements SubscriberEvent {
    }

    /** The subscriber stopped for good, for this reason (readiness reports it DOWN). */
    record Halted(String queue, String reason) implements SubscriberEvent {
    }
}
