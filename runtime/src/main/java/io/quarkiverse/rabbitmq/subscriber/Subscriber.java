package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the consumer of a RabbitMQ queue.
 * <p>
 * The method takes one payload parameter (a type decoded from JSON, or {@code byte[]}, {@code String},
 * {@code io.vertx.core.buffer.Buffer}, {@code io.vertx.core.json.JsonObject}) and optionally a {@link Delivery}. It
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

    /** The queue to consume. */
    String value();

    /** The type of the queue, used when the extension declares it. */
    QueueType type() default QueueType.CLASSIC;

    /**
     * Quorum queues only: the queue's own {@code x-delivery-limit}. {@code -1} (the default) leaves the server's
     * default in place.
     */
    int deliveryLimit() default -1;

    /**
     * How many unsettled deliveries this subscriber may hold at once ({@code basic.qos}). {@code 0} (the default)
     * takes {@code quarkus.rabbitmq-subscriber.prefetch}.
     */
    int prefetch() default 0;
}
