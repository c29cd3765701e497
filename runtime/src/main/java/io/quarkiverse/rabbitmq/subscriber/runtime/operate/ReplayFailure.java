package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;

/** What the broker's answer for a replayed copy means for the replay, in the words of its failure messages. */
final class ReplayFailure {

    private ReplayFailure() {
    }

    /** Why the copy to {@code queue} did not arrive; null when RabbitMQ confirmed it. */
    static String of(PublishOutcome outcome, String queue) {
        return switch (outcome.kind()) {
            case CONFIRMED -> null;
            case NACKED -> "RabbitMQ nacked the copy";
            case RETURNED -> "RabbitMQ returned the copy (" + outcome.reason() + "): no queue '" + queue + "' exists";
            case CLOSED -> "the channel closed (" + outcome.reason() + ")";
            case TIMED_OUT -> "RabbitMQ did not confirm the copy";
        };
    }
}
