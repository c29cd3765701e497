package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.jboss.logging.Logger;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.ConsumerBuilder;
import com.rabbitmq.stream.ConsumerFlowStrategy;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.StreamDoesNotExistException;
import com.rabbitmq.stream.StreamException;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;

/**
 * Streams read over RabbitMQ's stream protocol, with the stream client: a named consumer with manual offset tracking
 * (the runtime stores what is settled), credits asked for as messages are processed, and the filter's values.
 */
final class ClientStreamReading implements StreamReading {

    private static final Logger LOG = Logger.getLogger(ClientStreamReading.class);

    /**
     * Chunks the broker may send before the first is half processed. A chunk holds what the broker wrote at once (one
     * to a few thousand messages), so two keep the handler busy while the next arrives.
     */
    static final int INITIAL_CREDITS = 2;

    private final Environment environment;

    ClientStreamReading(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Reader read(String stream, String name, Start start, Set<String> filter, Handler handler) {
        ConsumerBuilder builder = environment.consumerBuilder().stream(stream).name(name).offset(specification(start))
                // Stored when the settled run grows, never on a timer: see SettledOffsets.
                .manualTrackingStrategy().checkInterval(Duration.ZERO).builder()
                .flow().strategy(ConsumerFlowStrategy.creditWhenHalfMessagesProcessed(INITIAL_CREDITS)).builder()
                .messageHandler((context, message) -> handler.message(context.offset(),
                        StreamMessages.properties(message), message.getBodyAsBinary(), filterValue(message),
                        context::processed));
        if (!filter.isEmpty()) {
            // The client requires a post-filter with the values. It passes everything: the runtime drops the Bloom
            // filter's false positives itself, marking them processed, which the client's own post-filter does not
            // (its flow control would wait for them).
            builder = builder.filter().values(filter.toArray(String[]::new)).postFilter(message -> true).builder();
        }
        Consumer consumer;
        try {
            consumer = builder.build();
        } catch (StreamDoesNotExistException e) {
            throw new IllegalStateException("Stream '" + stream + "' does not exist on RabbitMQ: declare it "
                    + "(quarkus.rabbitmq-subscriber.declare-topology=true declares it as type = QueueType.STREAM), or "
                    + "check its name", e);
        } catch (StreamException e) {
            throw new IllegalStateException("Could not read stream '" + stream + "' as consumer '" + name + "': "
                    + e.getMessage(), e);
        }
        return new Reader() {
            @Override
            public void store(long offset) {
                consumer.store(offset);
            }

            @Override
            public void close() {
                try {
                    consumer.close();
                } catch (RuntimeException e) {
                    LOG.debugf("Closing the stream consumer '%s' of '%s' failed (%s)", name, stream, e.toString());
                }
            }
        };
    }

    private static OffsetSpecification specification(Start start) {
        return switch (start.kind()) {
            case FIRST -> OffsetSpecification.first();
            case LAST -> OffsetSpecification.last();
            case NEXT -> OffsetSpecification.next();
            case OFFSET -> OffsetSpecification.offset(start.value());
            case TIMESTAMP -> OffsetSpecification.timestamp(start.value());
        };
    }

    /** A message's filter value: an application property, or a message annotation when RabbitMQ mapped an AMQP 0.9.1 header. */
    private static String filterValue(Message message) {
        Object value = valueOf(message.getApplicationProperties());
        if (value == null) {
            value = valueOf(message.getMessageAnnotations());
        }
        return value == null ? null : value.toString();
    }

    private static Object valueOf(Map<String, Object> map) {
        return map == null ? null : map.get(FILTER_VALUE);
    }
}
