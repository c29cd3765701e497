package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

/**
 * The delivery tags a channel handed out and has not seen settled on the wire, in the order they arrived (RabbitMQ
 * numbers them upwards). Acks wait here for the next flush, which sends one {@code basic.ack multiple=true} for the
 * longest run of acked tags at the head, and single acks for acked tags behind a delivery still in flight. Rejects are
 * sent at once and only leave a hole the run may cross (a multiple ack covers only tags still unacked on the broker).
 * <p>
 * Only touched on the subscriber's event loop, so it is neither locked nor shared.
 */
final class AckWindow {

    static final byte IN_FLIGHT = 0;
    static final byte ACK_PENDING = 1;
    static final byte SETTLED = 2;

    private long[] tags = new long[256];
    private byte[] states = new byte[256];
    private int head;
    private int size;

    /** Receives the tags to send; {@code multiple} is true for a run ending at that tag. */
    interface AckSender {
        void ack(long tag, boolean multiple, int count);
    }

    void add(long tag) {
        if (size == tags.length) {
            grow();
        }
        int slot = (head + size) & (tags.length - 1);
        tags[slot] = tag;
        states[slot] = IN_FLIGHT;
        size++;
    }

    /** Marks the tag; returns false when the window does not hold it (settled already, or unknown). */
    boolean mark(long tag, byte state) {
        // Settlements come mostly in arrival order: search from the head.
        for (int i = 0; i < size; i++) {
            int slot = (head + i) & (tags.length - 1);
            if (tags[slot] == tag) {
                if (states[slot] != IN_FLIGHT) {
                    return false;
                }
                states[slot] = state;
                return true;
            }
        }
        return false;
    }

    /** Sends what is pending and drops every settled tag from the head. */
    void flush(AckSender sender) {
        long lastRunTag = -1;
        int runAcks = 0;
        while (size > 0 && states[head] != IN_FLIGHT) {
            if (states[head] == ACK_PENDING) {
                lastRunTag = tags[head];
                runAcks++;
            }
            head = (head + 1) & (tags.length - 1);
            size--;
        }
        if (runAcks > 0) {
            sender.ack(lastRunTag, runAcks > 1, runAcks);
        }
        // Acks behind a delivery still in flight go one by one, so a slow handler does not hold back the others.
        for (int i = 0; i < size; i++) {
            int slot = (head + i) & (tags.length - 1);
            if (states[slot] == ACK_PENDING) {
                sender.ack(tags[slot], false, 1);
                states[slot] = SETTLED;
            }
        }
    }

    int size() {
        return size;
    }

    private void grow() {
        long[] newTags = new long[tags.length * 2];
        byte[] newStates = new byte[tags.length * 2];
        for (int i = 0; i < size; i++) {
            int slot = (head + i) & (tags.length - 1);
            newTags[i] = tags[slot];
            newStates[i] = states[slot];
        }
        tags = newTags;
        states = newStates;
        head = 0;
    }
}
