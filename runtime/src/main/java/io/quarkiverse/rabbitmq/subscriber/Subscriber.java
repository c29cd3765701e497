package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the consumer of a RabbitMQ queue.
 * <p>
 * The method takes one payload parameter (a type decoded from JSON, or {@code byte[]}, {@code String},
 * {@code io.vertx.core.buffer.Buffer}, {@code io.vertx.core.json.JsonObject}, {@code io.vertx.core.json.JsonArray}) and
 * optionally a {@link Delivery}. It
 * returns an {@link Outcome}, {@code Uni<Outcome>}, {@code CompletionStage<Outcome>}, {@code void} or
 * {@code Uni<Void>}. Methods returning {@code Uni} or {@code CompletionStage} run on the Vert.x event loop, others on
 * a worker thread; {@code @Blocking}, {@code @NonBlocking} and {@code @RunOnVirtualThread} change that. Whatever runs
 * the handler, the delivery is settled on the subscriber's event loop, exactly once.
 * <p>
 * The build fails, naming the method, when a declaration cannot work.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Subscriber {

    /**
     * The queue to consume. May be read from the configuration, {@code "${orders.queue}"} or
     * {@code "${orders.queue:orders}"}, resolved at startup; so may {@link #deadLetter()}, {@link #waitingQueue()} and
     * the bindings' exchanges and keys.
     */
    String value();

    /**
     * The broker whose queue this is: a name configured under {@code quarkus.rabbitmq-subscriber.brokers."<name>".*}
     * (a virtual host counts as a broker of its own), or, when empty (the default), the default broker. Its copies,
     * dead letters, outputs and replies go to that broker too, unless an output names another
     * ({@link OutgoingMessage#broker(String)}). A name that is not configured fails the build.
     */
    String broker() default "";

    /** The type of the queue, used when the extension declares it. */
    QueueType type() default QueueType.CLASSIC;

    /**
     * Quorum queues only: the queue's own {@code x-delivery-limit}. {@code -1} (the default) leaves the server's
     * default in place: on RabbitMQ 4, 20 redeliveries; on RabbitMQ 3, none (a failing message is redelivered for ever).
     * A failure on a quorum queue is always requeued: the server counts, and its limit ends the loop.
     */
    int deliveryLimit() default -1;

    /**
     * How many unsettled deliveries this subscriber may hold at once ({@code basic.qos}). {@code 0} (the default)
     * takes {@code quarkus.rabbitmq-subscriber.prefetch}.
     */
    int prefetch() default 0;

    /**
     * How many deliveries of one message there may be, the first included; {@code 0} (the default) sets no cap. On a
     * classic queue the runtime counts: a {@code retry} (or a failure) publishes a copy with the retry-count header
     * raised by one and acknowledges the original, and the delivery that reaches the cap goes to {@link #deadLetter()}
     * instead. On a quorum queue the server counts: the cap becomes the queue's {@code x-delivery-limit}
     * ({@code maxAttempts - 1}) and its dead-letter route, so it needs {@link #deadLetter()} too: the queue is declared
     * with {@code x-delivery-limit}, {@code x-dead-letter-exchange ""}, {@code x-dead-letter-routing-key},
     * {@code x-dead-letter-strategy at-least-once} and {@code x-overflow reject-publish} (without the last two RabbitMQ
     * dead-letters at most once, and loses dead letters when a leader stops).
     */
    int maxAttempts() default 0;

    /**
     * The queue that receives the messages that used up {@link #maxAttempts()}, through the default exchange. Declared
     * with the work queue when the extension declares topology. Empty (the default): none.
     */
    String deadLetter() default "";

    /** Classic queues under a cap: how copies and dead letters are published. */
    RetryPublish retryPublish() default RetryPublish.DEFAULT;

    /**
     * Exception types a handler failure of which (or of a subtype) goes to the dead-letter queue at once, carrying the
     * exception headers, instead of being retried: a declined card will be declined again. On a classic queue it needs
     * a dead-letter queue (the build fails without one); on a quorum queue it is a reject without requeue, which the
     * queue's dead-letter route takes.
     */
    Class<? extends Throwable>[] deadLetterOn() default {};

    /**
     * How long a failure (a thrown exception, a failed result) waits before the next attempt: exponential, from
     * {@link Backoff#initial()} up to {@link Backoff#max()}, where {@link #delay()} says, counted against
     * {@link #maxAttempts()}, which it needs. The default, no back-off: a failure is retried at once. {@code retry()}
     * is always at once, and {@code retryAfter(d)} always {@code d}. See {@link Backoff}.
     */
    Backoff backoff() default @Backoff;

    /**
     * Quorum queues on RabbitMQ 4.3 and later: the server holds a retried or failed message before its next delivery,
     * longer after each failure. Empty (the default): retries follow {@link #backoff()} and {@link #delay()}. See
     * {@link RetryDelay}.
     */
    RetryDelay retryDelay() default @RetryDelay;

    /**
     * How many deliveries of this subscription its handler processes at once. {@code 0} (the default): up to the
     * prefetch; on a stream ({@code QueueType.STREAM}), 1. {@code 1} handles the queue in order, one message at a
     * time, whatever the execution model.
     */
    int concurrency() default 0;

    /**
     * Where the copy of a message waits after {@code Outcome.retryAfter(delay)}: in the service (the default), in a
     * waiting queue, in one waiting queue per delay, or in the delayed-message exchange. See {@link Delay}.
     */
    Delay delay() default Delay.IN_SERVICE;

    /**
     * {@link Delay#DLX_TTL} and {@link Delay#DLX_TTL_PER_DELAY}: the waiting queue (per delay: the prefix of the
     * waiting queues' names). Empty (the default): {@code <queue>.retry}.
     */
    String waitingQueue() default "";

    /**
     * {@link Delay#DLX_TTL_PER_DELAY} only: the delays a waiting queue is declared for, as durations ({@code "500ms"},
     * {@code "30s"}, {@code "5m"}, {@code "PT1H"}). Each gets the waiting queue {@code <waitingQueue>.<delay>}.
     */
    String[] delays() default {};

    /**
     * The exchanges the queue is bound to, each with its keys. Empty (the default): the queue is reached through the
     * default exchange only, by its name. See {@link Binding}.
     */
    Binding[] bindings() default {};

    /**
     * Consumer arguments as {@code name=value}, sent with {@code basic.consume}: {@code "x-priority=10"} (while it can
     * take deliveries, a consumer of higher priority gets them before the others of the queue) and, on a quorum queue
     * on RabbitMQ 4.3 and later, {@code "x-consumer-timeout=1800000"} (milliseconds a delivery may stay unsettled
     * before the server cancels the consumer and gives the delivery back; the subscriber consumes again). Checked at
     * build time; {@code x-consumer-timeout} on an older broker, which would ignore it, refuses to start.
     * {@code quarkus.rabbitmq-subscriber.queues."<queue>".consumer-arguments."<name>"} adds or replaces one.
     */
    String[] consumerArguments() default {};

    /**
     * Exactly-once effects in the application's database: the handler runs in a JTA transaction of the extension's on
     * the inbox datasource ({@code quarkus.rabbitmq-subscriber.inbox.datasource}, the default one by default), whose
     * first statement records the message's key (its message-id, or {@code quarkus.rabbitmq-subscriber.inbox.key}) in
     * the inbox table. A key already there means the handler's effects are in: it is not called, and the delivery is
     * acked (counted as {@code duplicate}). The transaction commits only when the handler acks; any other outcome or a
     * failure rolls it back and settles as without the inbox. Needs quarkus-agroal with a JDBC driver and
     * quarkus-narayana-jta, and a handler that runs on a worker or virtual thread; checked at build time.
     * {@code quarkus.rabbitmq-subscriber.queues."<queue>".inbox} overrides it.
     */
    boolean inbox() default false;

    /**
     * Queue arguments as {@code name=value}: {@code {"x-max-length=100000", "x-overflow=reject-publish"}}.
     * {@code true}/{@code false} become booleans, integers longs, the rest text; the arguments RabbitMQ documents are
     * checked at build time, and those the extension sets itself ({@code x-queue-type}, and the delivery limit and
     * dead-letter route of a quorum cap) are refused. {@code quarkus.rabbitmq-subscriber.queues."<queue>".arguments.
     * "<name>"} adds or replaces one.
     */
    String[] arguments() default {};

    /**
     * Hands the handler a list of messages per call ({@link Batch}): the method takes a {@code List<T>} payload and
     * returns {@link BatchOutcome} (or {@code void}, a {@code Uni} or {@code CompletionStage} of one). Unset (the
     * default, {@code size} 0): one message per call.
     */
    Batch batch() default @Batch;

    /**
     * Ordered partitions: {@code N} queues {@code <queue>.0} .. {@code <queue>.N-1}, each with single active consumer,
     * behind a consistent-hash exchange named after the queue ({@code x-consistent-hash}, from RabbitMQ's
     * {@code rabbitmq_consistent_hash_exchange} plugin), which routes every message of one {@link #partitionKey()} to
     * the same partition. Every instance of the service consumes every partition and one instance at a time is active
     * on each, so the messages of one key are handled one at a time, in the order published. A retry waits in the
     * service and the message keeps its place: nothing of its key overtakes it. Publish to the exchange (the
     * subscription's name) with {@code RabbitPublisher}. {@code 0} (the default): one queue, no partitions. See the
     * Ordered partitions page.
     */
    int partitions() default 0;

    /**
     * What the consistent-hash exchange hashes to choose a message's partition: {@code "routing-key"} (the default),
     * {@code "message-id"} (the message-id property) or {@code "header:<name>"} (a header's value, as
     * {@code "header:account-id"}). A message without it still goes to one partition, always the same.
     */
    String partitionKey() default "";

    /**
     * Where a stream subscription ({@code type = QueueType.STREAM}) starts reading when its consumer has no stored
     * offset yet: {@code "first"}, {@code "last"}, {@code "next"} (the default: the next message written),
     * {@code "offset:<n>"}, {@code "timestamp:<ISO-8601>"} (as {@code "timestamp:2026-01-31T10:00:00Z"}) or
     * {@code "ago:<duration>"} (as {@code "ago:10m"}). Once the consumer has stored an offset it resumes after the
     * last message it settled, whatever this says. A spec that does not parse fails the build. See the Streams page.
     */
    String offset() default "";

    /**
     * A stream subscription's filter (RabbitMQ 3.13 and later): it reads only the messages published with one of these
     * filter values ({@code OutgoingMessage.filterValue}). The broker skips the chunks that hold none of them, and the
     * extension drops what else the broker's Bloom filter lets through before the handler. Empty (the default): every
     * message. See the Streams page.
     */
    String[] filter() default {};
}
