package io.quarkiverse.rabbitmq.subscriber.runtime.delay;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.DelayLabel;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * {@code DLX_TTL_PER_DELAY}: one waiting queue per listed delay, each declared with that delay as its queue TTL, so
 * every message in one queue expires in the order it arrived and a short delay never waits behind a long one. The copy
 * carries no expiration of its own.
 * <p>
 * A delay that is not listed waits in the queue of the next longer listed delay: never less than asked. One longer
 * than every listed delay waits in the longest, and a WARN (once per delay) says it came back early.
 */
final class WaitingQueuePerDelay implements CopyDelay {

    private static final Logger LOG = Logger.getLogger(WaitingQueuePerDelay.class);
    /** Bounds the memory of delays already warned about; past it, a repeated warning is harmless. */
    private static final int WARNED_MAX = 256;

    private final SubscriptionSpec subscription;
    private final List<Long> delays;
    private final Set<Long> warned = ConcurrentHashMap.newKeySet();

    WaitingQueuePerDelay(SubscriptionSpec subscription) {
        this.subscription = subscription;
        this.delays = subscription.delays;
    }

    @Override
    public Placement place(AMQP.BasicProperties copy, Duration delay) {
        return new Publish("", subscription.waitingQueueFor(listedDelayFor(delay)), true, copy);
    }

    /** The shortest listed delay at least as long as {@code delay}, else the longest. */
    long listedDelayFor(Duration delay) {
        long wanted = DelayStrategies.millis(delay);
        for (long listed : delays) {
            if (listed >= wanted) {
                return listed;
            }
        }
        long longest = delays.get(delays.size() - 1);
        if (warned.size() < WARNED_MAX && warned.add(wanted)) {
            LOG.warnf("retryAfter(%s) on queue '%s' is longer than its longest listed delay (%s): the copy waits %s "
                    + "in '%s' and comes back early. Add %s to @Subscriber(delays)", DelayLabel.of(wanted),
                    subscription.queue, DelayLabel.of(longest), DelayLabel.of(longest),
                    subscription.waitingQueueFor(longest), DelayLabel.of(wanted));
        }
        return longest;
    }
}
