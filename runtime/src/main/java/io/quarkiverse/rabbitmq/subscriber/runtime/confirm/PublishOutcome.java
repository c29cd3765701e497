package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

/**
 * What RabbitMQ said of one confirmed publish, as {@link ConfirmedChannel} tells it: what it means (an original acked
 * or requeued, a future failed, a replay stopped) is the caller's to say.
 *
 * @param kind what came
 * @param reason the return's reply text, or the channel close's words; null for a confirm and a nack
 * @param refused for a close: the close is RabbitMQ refusing this very publish for what it was (see
 *        {@link #isPublishRefusal}), not a loss of the channel
 */
public record PublishOutcome(Kind kind, String reason, boolean refused) {

    public enum Kind {
        /** The broker took responsibility for it. */
        CONFIRMED,
        /** The broker could not take it (an internal error). */
        NACKED,
        /** Published {@code mandatory}, and no queue took it. */
        RETURNED,
        /** Its channel closed before the broker answered: no answer comes any more. */
        CLOSED,
        /** No answer within the caller's timeout. */
        TIMED_OUT
    }

    public static final PublishOutcome CONFIRMED = new PublishOutcome(Kind.CONFIRMED, null, false);
    public static final PublishOutcome NACKED = new PublishOutcome(Kind.NACKED, null, false);
    public static final PublishOutcome TIMED_OUT = new PublishOutcome(Kind.TIMED_OUT, null, false);

    /**
     * Whether a channel's close is RabbitMQ refusing a publish for what it was, not for where it went (a missing
     * exchange is 404, a permission 403): 406 with {@code basic.publish} (class 60, method 40) as the method at fault.
     */
    public static boolean isPublishRefusal(String closeReason) {
        return closeReason != null && closeReason.contains("reply-code=406")
                && closeReason.contains("class-id=60, method-id=40");
    }
}
