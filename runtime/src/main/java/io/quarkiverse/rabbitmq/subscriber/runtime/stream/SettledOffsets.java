package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjLongConsumer;

/**
 * The messages a stream consumer has handed out and not yet seen settled, in offset order per stream (the stream read,
 * or each partition of a super stream), each under the delivery tag the settler knows it by (one numbering across the
 * partitions). The offset to store for a stream is the last of the settled run at the head of its own messages: it
 * never passes a message still running, retried in place or waiting, whatever the concurrency, so a consumer that
 * starts again re-reads at most what was settled after it; and a partition's message that waits holds back no other
 * partition's.
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

    private final Map<String, ArrayDeque<Entry>> unsettled = new HashMap<>();
    /**
     * The settlement's messages to mark processed, kept between settlements: one ack frame can settle thousands, and a
     * list grown anew for each showed in the drain's profile. Filled and emptied under the lock; the readers' callbacks
     * never settle anything themselves, so it is never filled from within {@link #settled}.
     */
    private final List<Runnable> processed = new ArrayList<>();
    private long lastTag;
    /** The stream the last message arrived from, and its entries: a stream read (not a super stream) has only these. */
    private String lastStream;
    private ArrayDeque<Entry> lastEntries;

    /** The message at {@code offset} of {@code stream} arrived: its delivery tag, one above the last. */
    synchronized long arrived(String stream, long offset, Runnable processed) {
        long tag = ++lastTag;
        if (!stream.equals(lastStream)) {
            lastEntries = unsettled.computeIfAbsent(stream, ignored -> new ArrayDeque<>());
            lastStream = stream;
        }
        lastEntries.addLast(new Entry(tag, offset, processed));
        return tag;
    }

    /**
     * The message under {@code tag} (and with {@code upTo}, every one before it) is settled. Gives {@code store} each
     * stream whose settled run at the head moved, with the offset the consumer may store for it now.
     */
    synchronized void settled(long tag, boolean upTo, ObjLongConsumer<String> store) {
        for (Map.Entry<String, ArrayDeque<Entry>> stream : unsettled.entrySet()) {
            ArrayDeque<Entry> entries = stream.getValue();
            for (Entry entry : entries) {
                if (entry.tag > tag) {
                    break;
                }
                if ((upTo || entry.tag == tag) && !entry.settled) {
                    entry.settled = true;
                    processed.add(entry.processed);
                }
            }
            long offset = -1;
            while (!entries.isEmpty() && entries.peekFirst().settled) {
                offset = entries.pollFirst().offset;
            }
            if (offset >= 0) {
                store.accept(stream.getKey(), offset);
            }
        }
        // The offset stored first, then the credit: what the reader reads next comes after a position already stored.
        try {
            for (int i = 0; i < processed.size(); i++) {
                processed.get(i).run();
            }
        } finally {
            processed.clear();
        }
    }

    /** How many messages were handed out and are not settled. */
    synchronized int count() {
        return unsettled.values().stream().mapToInt(ArrayDeque::size).sum();
    }
}
