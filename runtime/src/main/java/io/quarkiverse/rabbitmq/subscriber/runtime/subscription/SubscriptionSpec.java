package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * What one subscription consumes and how its deliveries are retried, capped and dead-lettered: the
 * {@code @Subscriber} annotation with the {@code quarkus.rabbitmq-subscriber.queues."<queue>".*} overrides applied,
 * validated and fixed at build time. Immutable.
 */
public final class SubscriptionSpec {

    public final String queue;
    public final QueueType type;
    /** Deliveries of one message, the first included; 0: no cap. */
    public final int maxAttempts;
    /** The dead-letter queue, or null. */
    public final String deadLetter;
    /** Quorum only: the queue's own {@code x-delivery-limit} when no cap is mounted; -1: none. */
    public final int deliveryLimit;
    public final RetryPublish retryPublish;
    /** 0: the configured default. */
    public final int prefetch;
    /** 0: up to the prefetch. */
    public final int concurrency;

    @RecordableConstructor
    public SubscriptionSpec(String queue, QueueType type, int maxAttempts, String deadLetter, int deliveryLimit,
            RetryPublish retryPublish, int prefetch, int concurrency) {
        this.queue = Objects.requireNonNull(queue);
        this.type = type;
        this.maxAttempts = maxAttempts;
        this.deadLetter = deadLetter == null || deadLetter.isEmpty() ? null : deadLetter;
        this.deliveryLimit = deliveryLimit;
        this.retryPublish = retryPublish;
        this.prefetch = prefetch;
        this.concurrency = concurrency;
    }

    public static Builder builder(String queue) {
        return new Builder(queue);
    }

    public boolean quorum() {
        return type == QueueType.QUORUM;
    }

    /** Whether the runtime counts deliveries itself: a classic queue under a cap. */
    public boolean runtimeCounts() {
        return !quorum() && maxAttempts > 0;
    }

    /** Whether the server counts deliveries and stops at a limit: a quorum queue with a cap or its own limit. */
    public boolean serverCounts() {
        return quorum() && (maxAttempts > 0 || deliveryLimit >= 0);
    }

    /** The arguments the work queue is declared with. */
    public Map<String, Object> queueArguments() {
        Map<String, Object> arguments = new LinkedHashMap<>();
        if (quorum()) {
            arguments.put("x-queue-type", "quorum");
            if (maxAttempts > 0) {
                // RabbitMQ counts returns: a limit of M-1 gives exactly M deliveries.
                arguments.put("x-delivery-limit", maxAttempts - 1);
                arguments.put("x-dead-letter-exchange", "");
                arguments.put("x-dead-letter-routing-key", deadLetter);
            } else if (deliveryLimit >= 0) {
                arguments.put("x-delivery-limit", deliveryLimit);
            }
        }
        return arguments;
    }

    @Override
    public String toString() {
        return "queue '" + queue + "' (" + type + (maxAttempts > 0 ? ", maxAttempts " + maxAttempts : "")
                + (deadLetter != null ? ", deadLetter '" + deadLetter + "'" : "") + ")";
    }

    /** Builds a spec by name rather than by position. */
    public static final class Builder {
        private final String queue;
        private QueueType type = QueueType.CLASSIC;
        private int maxAttempts;
        private String deadLetter;
        private int deliveryLimit = -1;
        private RetryPublish retryPublish = RetryPublish.DEFAULT;
        private int prefetch;
        private int concurrency;

        private Builder(String queue) {
            this.queue = queue;
        }

        public Builder type(QueueType type) {
            this.type = type;
            return this;
        }

        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        public Builder deadLetter(String deadLetter) {
            this.deadLetter = deadLetter;
            return this;
        }

        public Builder deliveryLimit(int deliveryLimit) {
            this.deliveryLimit = deliveryLimit;
            return this;
        }

        public Builder retryPublish(RetryPublish retryPublish) {
            this.retryPublish = retryPublish;
            return this;
        }

        public Builder prefetch(int prefetch) {
            this.prefetch = prefetch;
            return this;
        }

        public Builder concurrency(int concurrency) {
            this.concurrency = concurrency;
            return this;
        }

        public SubscriptionSpec build() {
            return new SubscriptionSpec(queue, type, maxAttempts, deadLetter, deliveryLimit, retryPublish, prefetch,
                    concurrency);
        }
    }
}
