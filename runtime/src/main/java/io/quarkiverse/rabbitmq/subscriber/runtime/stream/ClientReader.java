package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.util.Map;
import java.util.TreeMap;

import org.jboss.logging.Logger;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.NoOffsetException;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;

/**
 * A stream, or a super stream, being read with the stream client: offsets are stored through the consumer of the
 * stream they belong to (a super stream's partitions each have their own, inside the client's super stream
 * consumer), and asked of the server through the environment.
 */
final class ClientReader implements StreamReading.Reader {

    private static final Logger LOG = Logger.getLogger(ClientReader.class);

    private final Environment environment;
    /** What {@link #close} closes: the stream's consumer, or the super stream's. */
    private final Consumer consumer;
    /** The consumer of each stream read (a super stream's: each partition's, as the client makes them known). */
    private final Map<String, Consumer> consumers;
    /** "stream" or "partition", for messages. */
    private final String kind;
    private final String read;
    private final String name;

    ClientReader(Environment environment, Consumer consumer, Map<String, Consumer> consumers, String kind, String read,
            String name) {
        this.environment = environment;
        this.consumer = consumer;
        this.consumers = consumers;
        this.kind = kind;
        this.read = read;
        this.name = name;
    }

    @Override
    public void store(String stream, long offset) {
        Consumer own = consumers.get(stream);
        if (own != null) {
            own.store(offset);
        }
    }

    @Override
    public long lastOffset(String stream) {
        try {
            return environment.queryStreamStats(stream).committedChunkId();
        } catch (NoOffsetException e) {
            return -1;
        }
    }

    @Override
    public boolean exists(String stream) {
        return environment.streamExists(stream);
    }

    /**
     * Asks the server, through each consumer, for the offset stored under the name: the client answers only while
     * the consumer's connection to the stream's leader (where offsets are stored) is up, and refuses at once while it
     * recovers it. No offset stored yet is an answer.
     */
    @Override
    public String notReadingBecause() {
        for (Map.Entry<String, Consumer> each : new TreeMap<>(consumers).entrySet()) {
            try {
                each.getValue().storedOffset();
            } catch (NoOffsetException e) {
                // Connected; nothing stored yet.
            } catch (RuntimeException e) {
                // While it recovers, the client has no connection to ask on, and says so with a NullPointerException.
                String detail = e.getCause() instanceof NullPointerException ? "no connection to the stream's leader"
                        : e.getMessage();
                return "consumer '" + name + "' cannot reach " + kind + " '" + each.getKey() + "' (" + detail
                        + "): the stream client reconnects by itself, and the consumer resumes after its stored offset";
            }
        }
        return null;
    }

    @Override
    public void close() {
        try {
            consumer.close();
        } catch (RuntimeException e) {
            LOG.debugf("Closing the stream consumer '%s' of '%s' failed (%s)", name, read, e.toString());
        }
    }
}
