package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.util.Set;

import com.rabbitmq.client.AMQP;

/**
 * How a stream subscription reads a stream: over RabbitMQ's stream protocol (the stream client), or from the
 * in-process broker's logs. What is done with what is read (the settled run, the stored offset, the filter's false
 * positives) is the runtime's, once, for both ({@code stream/StreamChannel}).
 */
public interface StreamReading {

    /**
     * The header a message's filter value travels in: {@code OutgoingMessage.filterValue} sets it, RabbitMQ reads it
     * when it writes the message to a stream, and both readers give it to {@link Handler#message}.
     */
    String FILTER_VALUE = "x-stream-filter-value";

    /**
     * Starts reading {@code stream} as consumer {@code name}: after the offset the server stored under that name, or,
     * with none stored, from {@code start}.
     *
     * @param start where to start without a stored offset: first, last, next, an offset or a timestamp
     * @param filter the filter values whose chunks to read (RabbitMQ 3.13 and later); empty: every message
     * @param singleActive whether it is the single active consumer of the name (RabbitMQ 3.11 and later): of the
     *        consumers of one name on the stream, the first to come reads it, and the next when it goes, resuming
     *        after the stored offset ({@link Handler#activity} says when); without, each reads the whole stream
     * @throws IllegalStateException naming the stream when it cannot be read (it does not exist, the server refused)
     */
    Reader read(String stream, String name, Start start, Set<String> filter, boolean singleActive, Handler handler);

    /**
     * Starts reading super stream {@code superStream}'s partitions as consumer {@code name}, the broker's single active
     * consumer of some of them: of each partition, one consumer of that name at a time is active, and the broker spreads
     * the partitions over the consumers (RabbitMQ 3.11 and later). A partition that becomes active here is read after
     * the offset stored for it under that name, or, with none stored, from {@code start}.
     *
     * @throws IllegalStateException naming the super stream when it cannot be read (it does not exist, the server
     *         refused)
     */
    Reader readSuperStream(String superStream, String name, Start start, Set<String> filter, Handler handler);

    /** Where a reader without a stored offset starts. */
    record Start(Kind kind, long value) {

        public enum Kind {
            FIRST,
            LAST,
            NEXT,
            /** {@code value} is the offset. */
            OFFSET,
            /** {@code value} is the epoch milliseconds. */
            TIMESTAMP
        }
    }

    /**
     * Receives what a reader reads, in offset order per stream, on the reader's thread: it must hand each message off.
     */
    @FunctionalInterface
    interface Handler {

        /**
         * @param stream the stream read, or the partition of a super stream
         * @param filterValue the message's filter value, or null (none, or an unfiltered reader that did not look)
         * @param processed to run once the message is settled: the reader asks for more as messages are processed,
         *        so what it holds stays bounded
         */
        void message(String stream, long offset, AMQP.BasicProperties properties, byte[] body, String filterValue,
                Runnable processed);

        /**
         * A super stream's partition, or a stream read as its single active consumer, became active here
         * ({@code active}), or stopped being so: another consumer of the name reads it now, or this one lost its
         * connection. Nothing more of it comes here while it is not active.
         */
        default void activity(String partition, boolean active) {
        }
    }

    /** A stream being read. */
    interface Reader {

        /**
         * Stores {@code offset} of {@code stream} (the stream read, or a partition of the super stream) on the server
         * under the reader's name: the last message it may skip when it starts again.
         */
        void store(String stream, long offset);

        /**
         * The offset of the last message written to {@code stream} (the stream read, or a partition of the super
         * stream), as far as the server tells: RabbitMQ gives the first offset of its last committed chunk, so this is
         * short of the last by at most a chunk. -1 for an empty stream.
         */
        long lastOffset(String stream);

        /** Whether {@code stream} (the stream read, or a partition of the super stream) still exists; asks the server. */
        boolean exists(String stream);

        /**
         * Why it reads nothing now although it was not closed (its connection is lost and being recovered, the stream
         * is gone), or null while it reads or stands by as a single active consumer's stand-in; asks the server.
         */
        default String notReadingBecause() {
            return null;
        }

        /** Stops reading; never throws. */
        void close();
    }
}
