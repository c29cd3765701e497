package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;

/**
 * A subscription as declared (the annotation's values, then the overrides), by name rather than by position. It
 * keeps what was written, which {@link SubscriptionRules} judge (a retry publish policy named at all, a waiting
 * queue for a strategy without one, the delays' texts); {@link #build()} applies the defaults.
 */
public final class SubscriptionDeclaration {
    final String queue;
    QueueType type = QueueType.CLASSIC;
    int maxAttempts;
    /** Null or empty: none. */
    String deadLetter;
    int deliveryLimit = -1;
    /** Null while none is named. */
    int killSwitchFailures;
    java.time.Duration killSwitchPause;
    /** As written: {@code @Backoff(initial)}, empty for none. */
    String backoffInitial = "";
    double backoffMultiplier = 2;
    /** As written: {@code @Backoff(max)}, empty for none. */
    String backoffMax = "";
    /** As written: {@code @RetryDelay(min)}, empty for none. */
    String retryDelayMin = "";
    /** As written: {@code @RetryDelay(max)}, empty for none. */
    String retryDelayMax = "";
    private final List<String> deadLetterOn = new ArrayList<>();
    RetryPublish retryPublish;
    int prefetch;
    int concurrency;
    Delay delay = Delay.IN_SERVICE;
    /** As written: null or empty for the strategy's default. */
    String waitingQueue;
    /** As written: {@code 500ms}, {@code 30s}, {@code PT5M}. */
    List<String> delays = List.of();
    String delayedExchange;
    boolean readsDeadLetters;
    /** As written: the bindings with their keys and argument texts. */
    final List<DeclaredBinding> bindings = new ArrayList<>();
    /** As written: {@code name=value}, the annotation's, then the configuration's. */
    final List<String> arguments = new ArrayList<>();
    /** As written: consumer arguments, {@code name=value}. */
    final List<String> consumerArguments = new ArrayList<>();
    boolean inbox;
    /** {@code @Subscriber(partitions)}: 0 for none. */
    int partitions;
    /** {@code @Subscriber(partitionKey)} as written. */
    String partitionKey = "";
    /** {@code @Subscriber(offset)} as written: empty for none. */
    String offset = "";
    /** {@code @Subscriber(filter)} as written: empty for none. */
    List<String> filter = List.of();
    /** {@code @Subscriber(broker)} as written: empty for the default broker. */
    String broker = "";

    /** A {@code @Binding} as written. */
    public record DeclaredBinding(String exchange, ExchangeType type, List<String> keys, List<String> arguments) {
    }

    SubscriptionDeclaration(String queue) {
        this.queue = queue;
    }

    /** The named broker whose queue it is; empty for the default broker. */
    public SubscriptionDeclaration broker(String broker) {
        this.broker = broker;
        return this;
    }

    public SubscriptionDeclaration type(QueueType type) {
        this.type = type;
        return this;
    }

    public SubscriptionDeclaration maxAttempts(int maxAttempts) {
        this.maxAttempts = maxAttempts;
        return this;
    }

    public SubscriptionDeclaration deadLetter(String deadLetter) {
        this.deadLetter = deadLetter;
        return this;
    }

    public SubscriptionDeclaration deliveryLimit(int deliveryLimit) {
        this.deliveryLimit = deliveryLimit;
        return this;
    }

    public SubscriptionDeclaration retryPublish(RetryPublish retryPublish) {
        this.retryPublish = retryPublish;
        return this;
    }

    public SubscriptionDeclaration prefetch(int prefetch) {
        this.prefetch = prefetch;
        return this;
    }

    public SubscriptionDeclaration concurrency(int concurrency) {
        this.concurrency = concurrency;
        return this;
    }

    public SubscriptionDeclaration delay(Delay delay) {
        this.delay = delay;
        return this;
    }

    public SubscriptionDeclaration waitingQueue(String waitingQueue) {
        this.waitingQueue = waitingQueue;
        return this;
    }

    /** {@code DLX_TTL_PER_DELAY}: the delays its waiting queues are declared for, as durations. */
    public SubscriptionDeclaration delays(List<String> delays) {
        this.delays = List.copyOf(delays);
        return this;
    }

    /** {@code PLUGIN}: the delayed-message exchange. */
    public SubscriptionDeclaration delayedExchange(String delayedExchange) {
        this.delayedExchange = delayedExchange;
        return this;
    }

    /** Whether the queue is another subscription's dead-letter queue. */
    public SubscriptionDeclaration readsDeadLetters(boolean readsDeadLetters) {
        this.readsDeadLetters = readsDeadLetters;
        return this;
    }

    public SubscriptionDeclaration binding(String exchange, ExchangeType type, List<String> keys, List<String> arguments) {
        bindings.add(new DeclaredBinding(exchange, type, List.copyOf(keys), List.copyOf(arguments)));
        return this;
    }

    /** The kill switch: pause for {@code pause} after {@code failures} failures in a row (0: none). */
    public SubscriptionDeclaration killSwitch(int failures, java.time.Duration pause) {
        this.killSwitchFailures = failures;
        this.killSwitchPause = pause;
        return this;
    }

    /** The back-off after failures, as written ({@code initial} empty: none). */
    public SubscriptionDeclaration backoff(String initial, double multiplier, String max) {
        this.backoffInitial = initial == null ? "" : initial;
        this.backoffMultiplier = multiplier;
        this.backoffMax = max == null ? "" : max;
        return this;
    }

    /** {@code @RetryDelay}: the server's delayed retry, durations as written (empty for none). */
    public SubscriptionDeclaration retryDelay(String min, String max) {
        this.retryDelayMin = min == null ? "" : min;
        this.retryDelayMax = max == null ? "" : max;
        return this;
    }

    public SubscriptionDeclaration retryDelayMin(String min) {
        return retryDelay(min, retryDelayMax);
    }

    public SubscriptionDeclaration retryDelayMax(String max) {
        return retryDelay(retryDelayMin, max);
    }

    public SubscriptionDeclaration backoffInitial(String initial) {
        return backoff(initial, backoffMultiplier, backoffMax);
    }

    public SubscriptionDeclaration backoffMultiplier(double multiplier) {
        return backoff(backoffInitial, multiplier, backoffMax);
    }

    public SubscriptionDeclaration backoffMax(String max) {
        return backoff(backoffInitial, backoffMultiplier, max);
    }

    /** Exception class names whose failures are dead-lettered at once. */
    public SubscriptionDeclaration deadLetterOn(List<String> exceptionTypes) {
        this.deadLetterOn.addAll(exceptionTypes);
        return this;
    }

    /** Consumer arguments as {@code name=value}; a later one of the same name replaces an earlier one. */
    public SubscriptionDeclaration consumerArguments(List<String> arguments) {
        this.consumerArguments.addAll(arguments);
        return this;
    }

    /** Ordered partitions: how many, and what the consistent-hash exchange hashes (empty: the routing key). */
    public SubscriptionDeclaration partitions(int partitions, String partitionKey) {
        this.partitions = partitions;
        this.partitionKey = partitionKey == null ? "" : partitionKey;
        return this;
    }

    /** {@code @Subscriber(partitions)} as declared so far: 0 for none. */
    public int partitions() {
        return partitions;
    }

    /** {@code @Subscriber(partitionKey)} as written so far. */
    public String partitionKey() {
        return partitionKey;
    }

    /** Where a stream subscription starts without a stored offset ({@link StreamOffset}), as written. */
    public SubscriptionDeclaration offset(String offset) {
        this.offset = offset == null ? "" : offset;
        return this;
    }

    /** A stream subscription's filter values ({@code @Subscriber(filter)}), as written. */
    public SubscriptionDeclaration filter(List<String> values) {
        this.filter = List.copyOf(values);
        return this;
    }

    public SubscriptionDeclaration inbox(boolean inbox) {
        this.inbox = inbox;
        return this;
    }

    /** Queue arguments as {@code name=value}; a later one of the same name replaces an earlier one. */
    public SubscriptionDeclaration arguments(List<String> arguments) {
        this.arguments.addAll(arguments);
        return this;
    }

    /**
     * The subscription with its defaults: no dead-letter queue for an empty name, {@code RetryPublish.DEFAULT}
     * when none is named, the waiting queue {@code <queue>.retry} when a waiting strategy names none, and only
     * the values its delay strategy uses (the waiting queue, the delays, the delayed-message exchange).
     */
    public SubscriptionSpec build() {
        boolean waits = delay == Delay.DLX_TTL || delay == Delay.DLX_TTL_PER_DELAY;
        return new SubscriptionSpec(queue, type, maxAttempts,
                deadLetter == null || deadLetter.isEmpty() ? null : deadLetter, deliveryLimit,
                retryPublish == null ? RetryPublish.DEFAULT : retryPublish, prefetch,
                // A log is read in order unless the subscription asks for more at once.
                concurrency == 0 && type == QueueType.STREAM ? 1 : concurrency, delay,
                !waits ? null : waitingQueue == null || waitingQueue.isEmpty() ? queue + ".retry" : waitingQueue,
                delay == Delay.DLX_TTL_PER_DELAY ? delayMillis() : List.of(),
                delay == Delay.PLUGIN ? delayedExchange : null, readsDeadLetters,
                bindings.stream().map(binding -> BindingSpec.of(queue, binding.exchange(), binding.type(),
                        binding.keys(), binding.arguments())).toList(),
                ArgumentText.parse(arguments), deadLetterOn.stream().distinct().sorted().toList(),
                killSwitchFailures, killSwitchPause == null ? 60_000 : killSwitchPause.toMillis(),
                millisOrZero(backoffInitial), backoffMultiplier, millisOrZero(backoffMax), millisOrZero(retryDelayMin),
                millisOrZero(retryDelayMax), consumerArguments(), inbox,
                partitions > 0 ? Partitioning.declared(partitions, partitionKey) : null,
                broker == null || broker.isEmpty() ? io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT : broker);
    }

    /**
     * The consumer arguments: those written, and a stream's offset spec and filter values under
     * {@link StreamOffset#ARGUMENT} and {@link StreamOffset#FILTER_ARGUMENT} (RabbitMQ's own names for them), which
     * take them to the stream consumer.
     */
    private java.util.Map<String, Object> consumerArguments() {
        java.util.Map<String, Object> parsed = ArgumentText.parse(consumerArguments);
        if (type == QueueType.STREAM) {
            parsed.put(StreamOffset.ARGUMENT, offset.isBlank() ? StreamOffset.DEFAULT : offset.trim());
            if (!filter.isEmpty()) {
                parsed.put(StreamOffset.FILTER_ARGUMENT, new ArrayList<>(filter));
            }
        }
        return parsed;
    }

    /** A duration as written, in milliseconds; 0 when empty or no duration ({@link SubscriptionRules} names it). */
    private static long millisOrZero(String text) {
        if (text.isBlank()) {
            return 0;
        }
        try {
            return Math.max(0, DelayLabel.parse(text));
        } catch (IllegalArgumentException e) {
            return 0;
        }
    }

    /**
     * The delays that are durations longer than zero, each once, shortest first. A build with any other fails
     * ({@link SubscriptionRules} names it); until then it is left out.
     */
    private List<Long> delayMillis() {
        List<Long> millis = new ArrayList<>();
        for (String text : delays) {
            try {
                long parsed = DelayLabel.parse(text);
                if (parsed > 0 && !millis.contains(parsed)) {
                    millis.add(parsed);
                }
            } catch (IllegalArgumentException e) {
                // not a duration: left out
            }
        }
        millis.sort(null);
        return millis;
    }
}
