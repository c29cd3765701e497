package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.function.Consumer;

import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;

/**
 * One confirmed publish of a {@link PublishGroup}: tells its group what the broker said of it
 * ({@link PublishOutcome}), in words that name what it was and where it went.
 */
final class GroupedPublish implements Consumer<PublishOutcome> {

    private final PublishGroup group;
    private final Outgoing publish;
    /** Whether it went on a channel of its own (then the delivery is still the subscriber's when that closes). */
    private final boolean ownChannel;
    /** That channel, in words ("the outputs' channel"). */
    private final String channelName;
    /** How long it may wait for its confirm, for the words of a timeout. */
    private final long timeoutMillis;

    GroupedPublish(PublishGroup group, Outgoing publish, boolean ownChannel, String channelName, long timeoutMillis) {
        this.group = group;
        this.publish = publish;
        this.ownChannel = ownChannel;
        this.channelName = channelName;
        this.timeoutMillis = timeoutMillis;
    }

    @Override
    public void accept(PublishOutcome outcome) {
        switch (outcome.kind()) {
            case CONFIRMED -> group.confirmed();
            case NACKED -> group.failed(PublishAnswer.Kind.NACKED, "RabbitMQ nacked " + named(), null);
            case RETURNED -> group.failed(PublishAnswer.Kind.RETURNED,
                    "RabbitMQ returned " + named() + " (" + outcome.reason() + "): no queue took it", null);
            case TIMED_OUT -> group.failed(PublishAnswer.Kind.TIMED_OUT,
                    "RabbitMQ did not confirm " + named() + " within " + timeoutMillis + " ms", null);
            case CLOSED -> closed(outcome.refused(), outcome.reason());
        }
    }

    private void closed(boolean refusedForWhatItIs, String reason) {
        PublishAnswer.Kind kind = ownChannel ? PublishAnswer.Kind.CUT : PublishAnswer.Kind.GONE;
        if (refusedForWhatItIs) {
            group.failed(kind, "RabbitMQ refused " + named() + " (" + reason + ")", reason);
        } else {
            group.failed(kind, channelName + " closed before RabbitMQ confirmed " + named(), null);
        }
    }

    private String named() {
        return publish.what() + " to " + publish.destination();
    }
}
