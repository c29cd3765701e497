package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import com.rabbitmq.stream.Consumer;
import com.rabbitmq.stream.ConsumerBuilder;
import com.rabbitmq.stream.ConsumerFlowStrategy;
import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.Message;
import com.rabbitmq.stream.NoOffsetException;
import com.rabbitmq.stream.OffsetSpecification;
import com.rabbitmq.stream.StreamDoesNotExistException;
import com.rabbitmq.stream.StreamException;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;

/**
 * Streams and super streams read over RabbitMQ's stream protocol, with the stream client: a named consumer with manual
 * offset tracking (the runtime stores what is settled), credits asked for as messages are processed, and the filter's
 * values.
 */
final class ClientStreamReading implements StreamReading {

    private static final Logger LOG = Logger.getLogger(ClientStreamReading.class);

    /**
     * Chunks the broker may send before the first is half processed. A chunk holds what the broker wrote at once (one
     * to a few thousand messages), so two keep the handler busy while the next arrives.
     */
    static final int INITIAL_CREDITS = 2;

    /** Looks up a partition's stored offset this many times, 100 ms apart, while its leader cannot be reached. */
    private static final int STORED_OFFSET_ATTEMPTS = 50;

    private final Environment environment;

    ClientStreamReading(Environment environment) {
        this.environment = environment;
    }

    @Override
    public Reader read(String stream, String name, Start start, Set<String> filter, boolean singleActive,
            Handler handler) {
        boolean filtered = !filter.isEmpty();
        ConsumerBuilder builder = configured(environment.consumerBuilder().stream(stream), name, start, filter);
        if (singleActive) {
            builder = activeOnly(builder, handler, specification(start), null);
        }
        builder = builder.messageHandler((context, message) -> handler.message(stream, context.offset(),
                StreamMessages.properties(message), message.getBodyAsBinary(),
                filtered ? filterValue(message) : null, context::processed));
        Consumer consumer = build(builder, "Stream '" + stream + "'", name);
        return new ClientReader(environment, consumer, Map.of(stream, consumer), "stream", stream, name);
    }

    /**
     * The client's super stream consumer: one consumer per partition, each a single active consumer of the name in the
     * super stream's group. An offset is stored through its partition's consumer (the client's super stream consumer
     * stores none itself); a partition that becomes active resumes after its stored offset, as the client's own
     * listener would (this one also tells the handler).
     */
    @Override
    public Reader readSuperStream(String superStream, String name, Start start, Set<String> filter, Handler handler) {
        Map<String, Consumer> partitions = new ConcurrentHashMap<>();
        ConsumerBuilder builder = activeOnly(
                configured(environment.consumerBuilder().superStream(superStream), name, start, filter), handler,
                specification(start), partitions)
                .messageHandler((context, message) -> {
                    if (!partitions.containsKey(context.stream())) {
                        partitions.put(context.stream(), context.consumer());
                    }
                    handler.message(context.stream(), context.offset(), StreamMessages.properties(message),
                            message.getBodyAsBinary(), filter.isEmpty() ? null : filterValue(message),
                            context::processed);
                });
        Consumer consumer = build(builder, "Super stream '" + superStream + "'", name);
        return new ClientReader(environment, consumer, partitions, "partition", superStream, name);
    }

    /**
     * A single active consumer of its name: told when it becomes active, or stops being so, on each stream (each
     * partition of a super stream, each kept in {@code consumers} when given); one that becomes active resumes after the
     * offset stored, as the client's own listener would (this one also tells the handler).
     */
    private static ConsumerBuilder activeOnly(ConsumerBuilder builder, Handler handler, OffsetSpecification initial,
            Map<String, Consumer> consumers) {
        return builder.singleActiveConsumer().consumerUpdateListener(context -> {
            if (consumers != null) {
                consumers.put(context.stream(), context.consumer());
            }
            handler.activity(context.stream(), context.isActive());
            return context.isActive() ? resumeAt(context.consumer(), context.stream(), initial) : null;
        });
    }

    /** What every reader of ours is: named, tracked by hand, paced by credits, filtered. */
    private static ConsumerBuilder configured(ConsumerBuilder builder, String name, Start start, Set<String> filter) {
        builder = builder.name(name).offset(specification(start))
                // Stored when the settled run grows, never on a timer: see SettledOffsets.
                .manualTrackingStrategy().checkInterval(Duration.ZERO).builder()
                .flow().strategy(ConsumerFlowStrategy.creditWhenHalfMessagesProcessed(INITIAL_CREDITS)).builder();
        if (!filter.isEmpty()) {
            // The client requires a post-filter with the values. It passes everything: the runtime drops the Bloom
            // filter's false positives itself, marking them processed, which the client's own post-filter does not
            // (its flow control would wait for them).
            builder = builder.filter().values(filter.toArray(String[]::new)).postFilter(message -> true).builder();
        }
        return builder;
    }

    private static Consumer build(ConsumerBuilder builder, String what, String name) {
        try {
            return builder.build();
        } catch (StreamDoesNotExistException e) {
            throw new IllegalStateException(what + " does not exist on RabbitMQ: declare it "
                    + "(quarkus.rabbitmq-subscriber.declare-topology=true declares it as type = QueueType.STREAM), or "
                    + "check its name", e);
        } catch (StreamException e) {
            throw new IllegalStateException("Could not read " + what.substring(0, 1).toLowerCase(java.util.Locale.ROOT)
                    + what.substring(1) + " as consumer '" + name + "': " + e.getMessage(), e);
        }
    }

    /**
     * Where a partition that became active starts: after the offset stored under the name (looked up again while the
     * partition's leader cannot be reached), else where the subscription says.
     */
    private static OffsetSpecification resumeAt(Consumer consumer, String partition, OffsetSpecification initial) {
        for (int attempt = 1;; attempt++) {
            try {
                return OffsetSpecification.offset(consumer.storedOffset() + 1);
            } catch (NoOffsetException e) {
                return initial;
            } catch (RuntimeException e) {
                if (attempt >= STORED_OFFSET_ATTEMPTS) {
                    // Reading it again from the start is a re-read the inbox absorbs; skipping would lose messages.
                    LOG.warnf("Could not read the offset stored for partition '%s' (%s): reading it from its first "
                            + "message", partition, e.toString());
                    return OffsetSpecification.first();
                }
                try {
                    Thread.sleep(100);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return OffsetSpecification.first();
                }
            }
        }
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

    /**
     * A message's filter value: an application property, or a message annotation when RabbitMQ mapped an AMQP 0.9.1
     * header. Looked up for a filtered reader only: an unfiltered one has no use for it, and the lookup costs.
     */
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
