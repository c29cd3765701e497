package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.util.ArrayDeque;

/**
 * The messages a stream consumer has handed out and not yet seen settled, in offset order, each under the delivery
 * tag the settler knows it by. The offset to store is the last of the settled run at the head: it never passes a
 * message still running, retried in place or waiting, whatever the concurrency, so a consumer that starts again
 * re-reads at most what was settled after it.
 * <p>
 * Each settled message is also marked processed for the reader's flow control: it asks for more once enough of what
 * it read is settled, so a consumer holds a bounded number of messages in memory.
 * <p>
 * Arrivals come on the client's thread, settlements on the subscriber's event loop: every method holds the lock.
 */
final class SettledOffsets {

    private static final class Entry {
        final long tag;
        final long offset;
        final Runnable processed;
        boolean settled;

        Entry(long tag, long offset, Runnable processed) {
            this.tag = tag;
            this.offset = offset;
            this.processed = processed;
        }
    }

    private final ArrayDeque<Entry> unsettled = new ArrayDeque<>();
    private long lastTag;

    /** The message at {@code offset} arrived: its delivery tag, one above the last. */
    synchronized long arrived(long offset, Runnable processed) {
        long tag = ++lastTag;
        unsettled.addLast(new Entry(tag, offset, processed));
        return tag;
    }

    /**
     * The message under {@code tag} (and with {@code upTo}, every one before it) is settled. Returns the offset the
     * consumer may store now, or -1 when the head of the log's unsettled run did not move.
     */
    synchronized long settled(long tag, boolean upTo) {
        for (Entry entry : unsettled) {
            if (entry.tag > tag) {
                break;
            }
            if ((upTo || entry.tag == tag) && !entry.settled) {
                entry.settled = true;
                entry.processed.run();
            }
        }
        long store = -1;
        while (!unsettled.isEmpty() && unsettled.peekFirst().settled) {
            store = unsettled.pollFirst().offset;
        }
        return store;
    }

    /** How many messages were handed out and are not settled. */
    synchronized int count() {
        return unsettled.size();
    }
}
