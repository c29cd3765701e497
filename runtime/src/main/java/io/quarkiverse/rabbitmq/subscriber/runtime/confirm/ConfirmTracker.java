package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What one channel in confirm mode has published and the broker has not answered for yet, and which of those an answer
 * settles: the bookkeeping of {@link ConfirmedChannel}, the one engine every confirmed publish goes through.
 * <ul>
 * <li>A confirm or nack names a sequence number; with {@code multiple} it settles every publish up to it.</li>
 * <li>A {@code basic.return} (a {@code mandatory} publish no queue took) names no sequence number, only the message id,
 * exchange and routing key, and comes before the confirm of the same message: it settles the oldest publish in flight
 * with those three, so callers that reuse a message id still get the right one.</li>
 * <li>A channel that closes settles everything: no answer comes after that, and a new channel numbers from 1 again.</li>
 * </ul>
 * Each method removes what it settles and returns it, oldest first: what to do with it (complete a future, ack an
 * original, on which thread) is the caller's. Thread-safe through its own monitor, held only while the maps change and
 * never while a caller acts on what it got; uncontended where one event loop does everything.
 *
 * @param <T> what the caller keeps per publish (its original delivery, its future)
 */
final class ConfirmTracker<T> {

    private record Entry<T>(long sequenceNumber, String destination, T pending, long publishedAt) {
    }

    private final TreeMap<Long, Entry<T>> unconfirmed = new TreeMap<>();
    private final Map<String, Deque<Entry<T>>> byDestination = new HashMap<>();

    /** Tracks a publish under the sequence number the channel gave it, before the frame is written. */
    public synchronized void published(long sequenceNumber, String messageId, String exchange, String routingKey,
            T pending, long publishedAt) {
        Entry<T> entry = new Entry<>(sequenceNumber, destination(messageId, exchange, routingKey), pending, publishedAt);
        unconfirmed.put(sequenceNumber, entry);
        byDestination.computeIfAbsent(entry.destination(), key -> new ArrayDeque<>()).add(entry);
    }

    /**
     * Stops tracking a publish that was never written, or whose answer no longer matters (it timed out). Only that
     * publish: a channel reopened since numbers from 1 again, and the number may belong to a newer one.
     */
    public synchronized void forget(long sequenceNumber, T pending) {
        Entry<T> entry = unconfirmed.get(sequenceNumber);
        if (entry != null && entry.pending() == pending) {
            remove(entry);
        }
    }

    /** A confirm or a nack: the publishes it settles. */
    public synchronized List<T> answered(long sequenceNumber, boolean multiple) {
        if (!multiple) {
            Entry<T> entry = unconfirmed.get(sequenceNumber);
            if (entry == null) {
                return List.of();
            }
            remove(entry);
            return List.of(entry.pending());
        }
        NavigableMap<Long, Entry<T>> settled = unconfirmed.headMap(sequenceNumber, true);
        List<T> pendings = new ArrayList<>(settled.size());
        for (Entry<T> entry : new ArrayList<>(settled.values())) {
            remove(entry);
            pendings.add(entry.pending());
        }
        return pendings;
    }

    /** A return: the oldest publish in flight to that destination with that message id, or null when none is. */
    public synchronized T returned(String messageId, String exchange, String routingKey) {
        Deque<Entry<T>> entries = byDestination.get(destination(messageId, exchange, routingKey));
        Entry<T> entry = entries == null ? null : entries.peekFirst();
        if (entry == null) {
            return null;
        }
        remove(entry);
        return entry.pending();
    }

    /** The publishes still unanswered that were published before {@code cutoff} (as the caller's clock counts). */
    public synchronized List<T> publishedBefore(long cutoff) {
        List<T> expired = new ArrayList<>();
        Iterator<Entry<T>> oldestFirst = unconfirmed.values().iterator();
        while (oldestFirst.hasNext()) {
            Entry<T> entry = oldestFirst.next();
            if (entry.publishedAt() >= cutoff) {
                break;
            }
            oldestFirst.remove();
            removeFromDestination(entry);
            expired.add(entry.pending());
        }
        return expired;
    }

    /** The channel closed: every publish in flight, since none will be answered. */
    public synchronized List<T> closed() {
        List<T> all = new ArrayList<>(unconfirmed.size());
        unconfirmed.values().forEach(entry -> all.add(entry.pending()));
        unconfirmed.clear();
        byDestination.clear();
        return all;
    }

    public synchronized boolean isEmpty() {
        return unconfirmed.isEmpty();
    }

    private void remove(Entry<T> entry) {
        unconfirmed.remove(entry.sequenceNumber());
        removeFromDestination(entry);
    }

    private void removeFromDestination(Entry<T> entry) {
        Deque<Entry<T>> entries = byDestination.get(entry.destination());
        if (entries != null) {
            entries.remove(entry);
            if (entries.isEmpty()) {
                byDestination.remove(entry.destination());
            }
        }
    }

    private static String destination(String messageId, String exchange, String routingKey) {
        return messageId + '\u0000' + exchange + '\u0000' + routingKey;
    }
}
