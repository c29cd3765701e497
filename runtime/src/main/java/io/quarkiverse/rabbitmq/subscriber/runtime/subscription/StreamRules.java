package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;

/**
 * What cannot apply to a stream ({@code type = QueueType.STREAM}), checked at build time with the rest of
 * {@link SubscriptionRules}. Each text completes {@code "@Subscriber method <method> "}.
 * <p>
 * A stream is a log: a message is never taken out of it, so nothing can be requeued or sent back to it. A retry, a
 * failure and a {@code retryAfter} run again in place, the consumer's position held; a dead letter is a confirmed copy
 * in the dead-letter queue. Every way of retrying elsewhere (a waiting queue, the delayed-message exchange, the retry
 * publish policy of copies into the queue) and every server-side count ({@code deliveryLimit}) is refused, as is what
 * would requeue (the kill switch's pause gives deliveries back).
 */
final class StreamRules {

    private StreamRules() {
    }

    static void check(SubscriptionSpec subscription, SubscriptionDeclaration declared, List<String> problems) {
        if (subscription.type != QueueType.STREAM) {
            if (!declared.offset.isBlank()) {
                problems.add("sets offset = '" + declared.offset + "' on a queue of type " + subscription.type
                        + ": only a stream is read from an offset; use type = QueueType.STREAM, or remove offset");
            }
            if (!declared.filter.isEmpty()) {
                problems.add("sets filter on a queue of type " + subscription.type + ": only a stream is filtered; use "
                        + "type = QueueType.STREAM, or remove filter");
            }
            return;
        }
        if (declared.filter.stream().anyMatch(String::isBlank)) {
            problems.add("sets a blank filter value: each value of filter is one a publisher sets "
                    + "(OutgoingMessage.filterValue)");
        }
        if (!declared.offset.isBlank()) {
            try {
                StreamOffset.parse(declared.offset);
            } catch (IllegalArgumentException e) {
                problems.add("sets " + e.getMessage());
            }
        }
        if (subscription.delay != Delay.IN_SERVICE) {
            problems.add("sets delay = " + subscription.delay + " on a stream: a retryAfter on a log waits in place, "
                    + "the consumer's position held; remove delay (and waitingQueue, delays)");
        }
        if (declared.retryPublish != null) {
            problems.add("sets retryPublish on a stream: a retry on a log runs again in place and publishes no copy; "
                    + "remove retryPublish");
        }
        if (subscription.deliveryLimit >= 0) {
            problems.add("sets deliveryLimit on a stream: a stream counts no deliveries; cap the attempts with "
                    + "maxAttempts");
        }
        if (subscription.killSwitchFailures > 0) {
            problems.add("sets a kill switch on a stream: its pause gives the deliveries back to the queue, which a log "
                    + "cannot take; remove quarkus.rabbitmq-subscriber.queues.\"" + subscription.queue
                    + "\".kill-switch");
        }
        if (subscription.readsDeadLetters) {
            problems.add("reads a dead-letter queue that is a stream: a dead-letter queue is a classic or quorum queue");
        }
    }
}
