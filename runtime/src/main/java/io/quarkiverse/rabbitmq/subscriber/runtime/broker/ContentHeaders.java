package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.rabbitmq.client.AMQP;

/**
 * How large a message's content header frame is, and whether it fits the connection's {@code frame_max}. AMQP 0-9-1
 * sends a message's properties and headers in one frame, which cannot be split: amqp-client refuses a publish whose
 * header frame exceeds {@code frame_max}, but only after it has taken a confirm sequence number for it, so a channel in
 * confirm mode would number every later confirm one off. Both brokers check here first and send nothing.
 */
public final class ContentHeaders {

    /**
     * RabbitMQ's default {@code frame_max}, which amqp-client accepts when it asks for none (and the in-process broker has).
     */
    public static final int RABBITMQ_FRAME_MAX = 131_072;

    private ContentHeaders() {
    }

    /** The size of the content header frame amqp-client would write for these properties, framing included. */
    public static int frameSize(AMQP.BasicProperties properties, long bodySize) {
        try {
            return (properties == null ? new AMQP.BasicProperties() : properties).toFrame(0, bodySize).size();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot encode message properties", e);
        }
    }

    /** Whether the header frame fits; a {@code frameMax} of 0 means no limit. */
    public static boolean fit(AMQP.BasicProperties properties, long bodySize, int frameMax) {
        return frameMax <= 0 || frameSize(properties, bodySize) <= frameMax;
    }

    /** Throws {@link TooLargeHeaders} when the header frame does not fit; nothing has been sent then. */
    public static void check(AMQP.BasicProperties properties, long bodySize, int frameMax) {
        if (frameMax > 0) {
            int size = frameSize(properties, bodySize);
            if (size > frameMax) {
                throw new TooLargeHeaders(size, frameMax);
            }
        }
    }

    /** A publish refused before anything was sent: its header frame exceeds {@code frame_max}; the channel stays usable. */
    public static final class TooLargeHeaders extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public TooLargeHeaders(int size, int frameMax) {
            super("its properties and headers take " + size + " bytes, more than the connection's frame_max of "
                    + frameMax + " bytes (AMQP cannot split them over frames)");
        }
    }
}
