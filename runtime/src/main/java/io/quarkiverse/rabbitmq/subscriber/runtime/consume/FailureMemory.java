package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers which messages already failed in this service, so that a failing handler gets one requeue per message
 * and not an endless loop. A message is known by its message id; one without an id is judged by RabbitMQ's
 * {@code redelivered} flag instead (which is also set for messages requeued by a closed channel, so those get no
 * second chance). Bounded, and touched only on the subscriber's event loop.
 */
final class FailureMemory {

    private static final int CAPACITY = 10_000;

    private final Map<String, Boolean> failedOnce = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > CAPACITY;
        }
    };

    /** Records a failure; true when the message should be requeued (its first failure here). */
    boolean firstFailure(String messageId, boolean redelivered) {
        if (messageId == null) {
            return !redelivered;
        }
        if (failedOnce.remove(messageId) != null) {
            return false;
        }
        failedOnce.put(messageId, Boolean.TRUE);
        return true;
    }
}
