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
     * @throws IllegalStateException naming the stream when it cannot be read (it does not exist, the server refused)
     */
    Reader read(String stream, String name, Start start, Set<String> filter, Handler handler);

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

    /** Receives what a reader reads, in offset order, on the reader's thread: it must hand each message off. */
    @FunctionalInterface
    interface Handler {

        /**
         * @param filterValue the message's filter value, or null
         * @param processed to run once the message is settled: the reader asks for more as messages are processed,
         *        so what it holds stays bounded
         */
        void message(long offset, AMQP.BasicProperties properties, byte[] body, String filterValue, Runnable processed);
    }

    /** A stream being read. */
    interface Reader {

        /** Stores {@code offset} on the server under the reader's name: the last message it may skip when it starts again. */
        void store(long offset);

        /** Stops reading; never throws. */
        void close();
    }
}
