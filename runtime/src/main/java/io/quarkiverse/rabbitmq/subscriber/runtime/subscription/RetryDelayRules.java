package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;

/**
 * What makes a {@code @RetryDelay} (the server's delayed retry, RabbitMQ 4.3+) unusable: checked at build time with
 * the rest of {@link SubscriptionRules}. Whether the broker has it is known only at startup
 * ({@code ServerCapabilities}). Each text completes {@code "@Subscriber method <method> "}.
 */
final class RetryDelayRules {

    private RetryDelayRules() {
    }

    static void check(SubscriptionSpec subscription, SubscriptionDeclaration declared, List<String> problems) {
        if (WaitBounds.judge("RetryDelay", "min", declared.retryDelayMin, declared.retryDelayMax, problems) == null) {
            return;
        }
        if (!subscription.quorum()) {
            problems.add("sets retryDelay on classic queue '" + subscription.queue + "': only quorum queues delay "
                    + "retries on the server (RabbitMQ 4.3 and later); use type = QueueType.QUORUM, or on a classic "
                    + "queue backoff with delay = DLX_TTL");
        }
        if (!declared.backoffInitial.isBlank() && subscription.backoffInitialMillis > 0) {
            problems.add("sets both retryDelay and backoff: with the server's delayed retry the server waits after "
                    + "each failure; remove backoff");
        }
        if (subscription.delay != Delay.IN_SERVICE) {
            problems.add("sets delay = " + subscription.delay + " with retryDelay: with the server's delayed retry "
                    + "nothing waits in waiting queues or the delayed-message exchange (retryAfter waits what the "
                    + "server says); remove delay");
        }
    }

}
