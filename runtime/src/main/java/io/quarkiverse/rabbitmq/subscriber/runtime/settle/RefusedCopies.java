package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The messages whose copy RabbitMQ refused for what it was (406 PRECONDITION_FAILED on {@code basic.publish}: a body
 * larger than the broker's {@code max_message_size} now is, a property it will not take), so that the same message is
 * not copied the same way again. The refusal closes the copies' channel and the message comes back; without this
 * memory its handler would run, its copy be refused and the subscriber subscribe again for ever, the rest of the queue
 * crawling behind it. Remembered once, the next copy of it is replaced by the message as received (to the dead-letter
 * queue, see {@link AsReceived}); refused twice, it is rejected without requeue.
 * <p>
 * A message is known by its message-id, its body's length and a checksum of it: the message comes back as a new
 * delivery, so nothing of the delivery itself names it. Bounded: the latest {@link #CAPACITY} refusals.
 */
public final class RefusedCopies {

    static final int CAPACITY = 1_024;

    /** How many times, and the latest refusal's words. */
    record Refusal(int times, String reason) {
    }

    private record Key(String messageId, int length, long checksum) {
    }

    private final Map<Key, Refusal> refusals = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Refusal> eldest) {
            return size() > CAPACITY;
        }
    };
    /** Read without the lock on every copy: nothing to look up while nothing was ever refused. */
    private volatile boolean any;

    /** RabbitMQ refused the copy (or dead letter) of this message. Any thread. */
    synchronized Refusal refused(Unsettled message, String reason) {
        any = true;
        return refusals.merge(keyOf(message), new Refusal(1, reason),
                (before, now) -> new Refusal(before.times() + 1, reason));
    }

    /** What RabbitMQ refused of this message before; null when nothing. Any thread. */
    Refusal of(Unsettled message) {
        if (!any) {
            return null;
        }
        Key key = keyOf(message);
        synchronized (this) {
            return refusals.get(key);
        }
    }

    private static Key keyOf(Unsettled message) {
        CRC32C checksum = new CRC32C();
        checksum.update(message.body());
        return new Key(message.wireProperties().getMessageId(), message.body().length, checksum.getValue());
    }
}
