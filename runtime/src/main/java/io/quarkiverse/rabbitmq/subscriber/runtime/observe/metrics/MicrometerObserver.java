package io.quarkiverse.rabbitmq.subscriber.runtime.observe.metrics;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.rabbitmq.client.AMQP;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LiveFigures;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observer;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;

/**
 * The subscribers' metrics, named after OpenTelemetry's messaging conventions (durations in seconds), plus the
 * extension's own outcome counter and gauges under {@code quarkus.rabbitmq-subscriber.*}. A bean only where the
 * application has Micrometer and {@code quarkus.rabbitmq-subscriber.metrics.enabled} is on.
 * <p>
 * {@code error.type} is always a tag ({@code none} when nothing failed): Prometheus wants one set of tag keys per name.
 * Meters are looked up once per queue and outcome, then reused: a delivery costs a few increments.
 */
@Singleton
public class MicrometerObserver implements Observer {

    public static final String CONSUMED = "messaging.client.consumed.messages";
    public static final String PROCESS_DURATION = "messaging.process.duration";
    public static final String OPERATION_DURATION = "messaging.client.operation.duration";
    public static final String SENT = "messaging.client.sent.messages";
    public static final String OUTCOMES = "quarkus.rabbitmq-subscriber.outcomes";
    public static final String BATCH_SIZE = "quarkus.rabbitmq-subscriber.batch.size";
    public static final String DELAYED_PENDING = "quarkus.rabbitmq-subscriber.delayed.pending";
    public static final String IN_FLIGHT = "quarkus.rabbitmq-subscriber.deliveries.in-flight";
    public static final String PAUSED = "quarkus.rabbitmq-subscriber.subscriber.paused";
    public static final String PARTITION_ACTIVE = "quarkus.rabbitmq-subscriber.partition.active";
    public static final String STREAM_LAG = "quarkus.rabbitmq-subscriber.stream.lag";
    static final String NO_ERROR = "none";

    @Inject
    MeterRegistry registry;

    /** The subscribers, for the broker of each queue (its meters' {@code broker} tag). */
    @Inject
    io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers found;

    private final Map<String, QueueMeters> queues = new ConcurrentHashMap<>();
    private final Map<List<String>, Timer> operations = new ConcurrentHashMap<>();
    private final Map<List<String>, Counter> sent = new ConcurrentHashMap<>();
    /** Batch handlers' queues only. */
    private final Map<String, DistributionSummary> batchSizes = new ConcurrentHashMap<>();

    @Override
    public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
        QueueMeters meters = queues.computeIfAbsent(queue, QueueMeters::new);
        long started = registry.config().clock().monotonicTime();
        return new Observation() {
            @Override
            public void settled(String outcome, String errorType) {
                long nanos = registry.config().clock().monotonicTime() - started;
                meters.outcome(outcome).increment();
                if (errorType == null) {
                    meters.consumed.increment();
                    meters.processDuration.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
                } else {
                    meters.failed(errorType).consumed.increment();
                    meters.failed(errorType).processDuration.record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
                }
            }
        };
    }

    /** Each item is observed as a single delivery ({@link #batchItem}); the batch adds its size to the histogram. */
    @Override
    public Observation processingBatch(String queue, List<AMQP.BasicProperties> items) {
        batchSizes.computeIfAbsent(queue, key -> DistributionSummary.builder(BATCH_SIZE)
                .description("Messages per call of a batch handler").baseUnit("messages")
                .tags("queue", key, "broker", brokerOf(key))
                .publishPercentileHistogram().register(registry)).record(items.size());
        return Observation.NONE;
    }

    @Override
    public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
        long started = registry.config().clock().monotonicTime();
        String destination = exchange.isEmpty() ? routingKey : exchange;
        return failure -> {
            String errorType = failure == null ? NO_ERROR : failure.getClass().getName();
            sent.computeIfAbsent(List.of(destination, errorType), key -> Counter.builder(SENT)
                    .description("Messages published, copies and dead letters included")
                    .tags(tags("publish", destination, errorType)).register(registry)).increment();
            operation("publish", destination, errorType).record(registry.config().clock().monotonicTime() - started,
                    java.util.concurrent.TimeUnit.NANOSECONDS);
        };
    }

    @Override
    public void settled(String queue, String operation, long nanos) {
        operation(operation, queue, NO_ERROR).record(nanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    @Override
    public void watch(LiveFigures figures) {
        for (String queue : figures.holdingQueues()) {
            Gauge.builder(DELAYED_PENDING, () -> figures.heldCopies().applyAsInt(queue))
                    .description("retryAfter copies waiting in this service (delay IN_SERVICE)")
                    .tags(Tags.of("queue", queue, "broker", brokerOf(queue))).register(registry);
        }
        for (String queue : figures.queues()) {
            Gauge.builder(PAUSED, () -> figures.paused().test(queue) ? 1 : 0)
                    .description("1 while the subscriber is paused (by the application or its kill switch), else 0")
                    .tags(Tags.of("queue", queue, "broker", brokerOf(queue))).register(registry);
        }
        for (String queue : figures.partitionQueues()) {
            Gauge.builder(PARTITION_ACTIVE, () -> figures.activePartition().test(queue) ? 1 : 0)
                    .description("1 while this instance is the partition's active consumer, or is taking it over "
                            + "(quorum partitions on RabbitMQ 4, super stream partitions), else 0")
                    .tags(Tags.of("queue", queue, "broker", brokerOf(queue))).register(registry);
        }
        for (String stream : figures.streams()) {
            Gauge.builder(STREAM_LAG, () -> figures.streamLag().applyAsDouble(stream))
                    .description("Messages of the stream (or super stream partition) past the offset its consumer "
                            + "stored here, to within a chunk; NaN where this instance does not read it")
                    .baseUnit("messages").tags(Tags.of("queue", stream, "broker", brokerOf(stream))).register(registry);
        }
        Gauge.builder(IN_FLIGHT, figures.inFlight()::getAsInt)
                .description("Deliveries handed to handlers and not settled yet").register(registry);
    }

    /** The broker a queue is on ({@code <default>} or a configured name). */
    private String brokerOf(String queue) {
        return found.brokerOf(queue);
    }

    private Timer operation(String operation, String destination, String errorType) {
        return operations.computeIfAbsent(List.of(operation, destination, errorType), key -> Timer.builder(
                OPERATION_DURATION).description("Duration of publishing and settling").publishPercentileHistogram()
                .tags(tags(operation, destination, errorType)).register(registry));
    }

    private static Tags tags(String operation, String destination, String errorType) {
        return Tags.of("messaging.system", "rabbitmq", "messaging.operation.name", operation,
                "messaging.destination.name", destination, "error.type", errorType);
    }

    /** One queue's meters; the failure variants by error type, made on first use. */
    private final class QueueMeters {
        final String queue;
        final Counter consumed;
        final Timer processDuration;
        final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
        final Map<String, QueueMeters.Failed> failures = new ConcurrentHashMap<>();

        QueueMeters(String queue) {
            this.queue = queue;
            Failed ok = new Failed(NO_ERROR);
            this.consumed = ok.consumed;
            this.processDuration = ok.processDuration;
            for (String label : OutcomeCounters.LABELS) {
                outcomes.put(label, Counter.builder(OUTCOMES).description("Deliveries by what became of them")
                        .tags("queue", queue, "outcome", label, "broker", brokerOf(queue)).register(registry));
            }
        }

        Counter outcome(String label) {
            return outcomes.get(label);
        }

        Failed failed(String errorType) {
            return failures.computeIfAbsent(errorType, Failed::new);
        }

        final class Failed {
            final Counter consumed;
            final Timer processDuration;

            Failed(String errorType) {
                Tags tags = tags("process", queue, errorType).and("broker", brokerOf(queue));
                consumed = Counter.builder(CONSUMED).description("Messages delivered to the handlers").tags(tags)
                        .register(registry);
                processDuration = Timer.builder(PROCESS_DURATION).description("Duration of processing a message")
                        .publishPercentileHistogram().tags(tags).register(registry);
            }
        }
    }
}
