package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.HashMap;
import java.util.Map;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/**
 * Says that a queue copies are published to does not exist (RabbitMQ returned one), at most once in
 * {@link #LOG_EVERY_MILLIS} per queue however many copies it returns. On the subscriber's event loop only.
 */
final class MissingQueues {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);
    static final long LOG_EVERY_MILLIS = 10_000;

    private final Clock clock;
    private final Map<String, Long> lastLogged = new HashMap<>();

    MissingQueues(Clock clock) {
        this.clock = clock;
    }

    /** @param what what became of the returned message */
    void log(String queue, String what) {
        long now = clock.millis();
        Long last = lastLogged.get(queue);
        if (last == null || now - last >= LOG_EVERY_MILLIS) {
            lastLogged.put(queue, now);
            LOG.errorf("Queue '%s' does not exist: RabbitMQ returned a message published to it (%s). Declare the "
                    + "queue; until then this repeats for each message that reaches it (logged once per %d s)", queue,
                    what, LOG_EVERY_MILLIS / 1000);
        }
    }
}
