package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.util.ArrayList;
import java.util.List;

/**
 * The deliveries of one channel whose settlement frame has not been sent yet, in the order they arrived (RabbitMQ
 * numbers them upwards). Acks wait here for the next flush, which sends one {@code basic.ack multiple=true} for the run
 * of acked deliveries at the head, and single acks for acked deliveries behind one still in flight. A reject is sent at
 * once and its slot leaves at once: a later multiple ack may cross its tag, since it only covers tags the broker still
 * counts as unacked.
 * <p>
 * Every operation is O(1) amortised and the window holds only unsent slots (at most the prefetch): the slots form a
 * linked list in arrival order, each delivery holds its own slot, and the acks marked since the last flush are listed
 * apart. A slow handler holding the head therefore costs nothing per later delivery: their single acks leave and their
 * slots go with them.
 * <p>
 * Only touched on the subscriber's event loop, so it is neither locked nor shared.
 */
final class AckWindow {

    static final byte IN_FLIGHT = 0;
    static final byte ACK_PENDING = 1;
    static final byte SETTLED = 2;

    private AckSlot head;
    private AckSlot tail;
    private int size;
    /** Slots marked ACK_PENDING since the last flush; at most the prefetch. */
    private final List<AckSlot> marked = new ArrayList<>();
    /** Slots looked at by flushes, so a test can see the cost stays flat. */
    private long visited;

    /** Receives the tags to send; {@code multiple} is true for a run ending at that tag. */
    interface AckSender {
        void ack(long tag, boolean multiple, int count);
    }

    /** A new delivery, behind every other. */
    AckSlot add(long tag) {
        AckSlot slot = new AckSlot(tag);
        if (tail == null) {
            head = slot;
        } else {
            tail.next = slot;
            slot.previous = tail;
        }
        tail = slot;
        size++;
        return slot;
    }

    /**
     * Marks the slot {@link #ACK_PENDING} (sent by the next flush) or {@link #SETTLED} (its frame was sent by the
     * caller); returns false when it was marked before.
     */
    boolean mark(AckSlot slot, byte state) {
        if (slot.state != IN_FLIGHT) {
            return false;
        }
        slot.state = state;
        if (state == ACK_PENDING) {
            marked.add(slot);
        } else {
            unlink(slot);
        }
        return true;
    }

    /** Sends every pending ack: the run at the head as one multiple ack, the others one by one. */
    void flush(AckSender sender) {
        long lastRunTag = -1;
        int runAcks = 0;
        while (head != null && head.state == ACK_PENDING) {
            visited++;
            lastRunTag = head.tag;
            runAcks++;
            head.state = SETTLED;
            unlink(head);
        }
        if (runAcks > 0) {
            sender.ack(lastRunTag, runAcks > 1, runAcks);
        }
        // Acks behind a delivery still in flight go one by one, so a slow handler does not hold back the others.
        for (int i = 0; i < marked.size(); i++) {
            visited++;
            AckSlot slot = marked.get(i);
            if (slot.state == ACK_PENDING) {
                slot.state = SETTLED;
                unlink(slot);
                sender.ack(slot.tag, false, 1);
            }
        }
        marked.clear();
    }

    /** Acks marked since the last flush, waiting for it. */
    int waiting() {
        return marked.size();
    }

    /** Slots whose frame has not been sent. */
    int size() {
        return size;
    }

    long visited() {
        return visited;
    }

    private void unlink(AckSlot slot) {
        if (slot.previous == null) {
            head = slot.next;
        } else {
            slot.previous.next = slot.next;
        }
        if (slot.next == null) {
            tail = slot.previous;
        } else {
            slot.next.previous = slot.previous;
        }
        slot.previous = null;
        slot.next = null;
        size--;
    }
}
