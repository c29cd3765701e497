package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * One confirmed publish of a {@link PublishGroup}: tells its group what the broker said of it, in words that name what
 * it was and where it went.
 */
final class GroupedPublish implements InFlightPublish {

    private final PublishGroup group;
    private final Outgoing publish;
    /** Whether it went on a channel of its own (then the delivery is still the subscriber's when that closes). */
    private final boolean ownChannel;
    /** That channel, in words ("the outputs' channel"). */
    private final String channelName;

    GroupedPublish(PublishGroup group, Outgoing publish, boolean ownChannel, String channelName) {
        this.group = group;
        this.publish = publish;
        this.ownChannel = ownChannel;
        this.channelName = channelName;
    }

    @Override
    public void confirmed() {
        group.confirmed();
    }

    @Override
    public void nacked() {
        group.failed(PublishAnswer.Kind.NACKED, "RabbitMQ nacked " + named(), null);
    }

    @Override
    public void returned(String replyText) {
        group.failed(PublishAnswer.Kind.RETURNED,
                "RabbitMQ returned " + named() + " (" + replyText + "): no queue took it", null);
    }

    @Override
    public void timedOut(long timeoutMillis) {
        group.failed(PublishAnswer.Kind.TIMED_OUT,
                "RabbitMQ did not confirm " + named() + " within " + timeoutMillis + " ms", null);
    }

    @Override
    public void closed(boolean refusedForWhatItIs, String reason) {
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
