package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

/**
 * A partition's attachment ({@code @Subscriber(partitions)}): it holds back by closing its channel, not by cancelling
 * its consumer, and consumes again on a fresh one. Cancelled, the consumer would leave the partition to another
 * instance at once while this one still handles what it received (and a retry it holds in place), so a key's messages
 * could be handled by two instances at a time; closed, everything unsettled goes back to the head of the queue, in
 * order, and the next active consumer starts there. What was being handled at the close may be handled again (at least
 * once). Lane only, as the supervisor calls it.
 */
public final class ReopeningAttachment implements Attachment {

    /** Opens a channel and consumes on it, as the first attachment did. */
    public interface Opening {
        Attachment open() throws Exception;
    }

    private final Opening opening;
    private Attachment current;
    /** Whether {@link #current} was closed to hold back, and a consume again needs a fresh channel. */
    private boolean closed;

    ReopeningAttachment(Attachment first, Opening opening) {
        this.current = first;
        this.opening = opening;
    }

    /** Wraps the attachment {@code opening} gives, opened now. */
    public static Attachment open(Opening opening) throws Exception {
        return new ReopeningAttachment(opening.open(), opening);
    }

    @Override
    public void consumeAgain(String queue) throws Exception {
        if (closed) {
            current = opening.open();
            closed = false;
        } else {
            current.consumeAgain(queue);
        }
    }

    @Override
    public void consumeWithPriority(String queue, int priority) throws Exception {
        if (!closed) {
            current.consumeWithPriority(queue, priority);
        }
    }

    @Override
    public void cancel() {
        current.cancel();
    }

    @Override
    public void stopTaking() {
        current.stopTaking();
    }

    /**
     * A stop leaves the consumer registered until the close. Cancelled, it would stop being the partition's active
     * consumer at once, whatever it holds (RabbitMQ then activates the next one, another instance's, which gets the
     * later messages while this one still handles the earlier ones, and a retry it holds in place comes back behind
     * them); closed once those have settled, the rest goes back to the head of the queue, in order, before the next
     * consumer gets anything.
     */
    @Override
    public void stopForClose() {
        current.stopTaking();
    }

    @Override
    public void pause() {
        if (!closed) {
            closed = true;
            current.close();
        }
    }

    /**
     * What the cut channel delivered comes again, in order, once RabbitMQ notices the cut; handled meanwhile, a key's
     * later message could take effect before the earlier one the cut interrupted (its ack, or its outputs, lost with the
     * connection). So it stops at once, as when holding back, and consumes on a fresh channel once the connection is back.
     */
    @Override
    public void connectionLost() {
        pause();
    }

    @Override
    public void close() {
        current.close();
    }
}
