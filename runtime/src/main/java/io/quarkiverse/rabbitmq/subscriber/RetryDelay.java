package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The server's own delayed retry, RabbitMQ 4.3 and later, for a subscription on a quorum queue:
 * {@code @Subscriber(value = "payouts", type = QueueType.QUORUM, maxAttempts = 5, deadLetter = "payouts.dead",
 * retryDelay = @RetryDelay(min = "1s", max = "1m"))}.
 * <p>
 * A {@code retry()}, a failure and a {@code retryAfter(d)} go back to the queue with {@code basic.reject} and the
 * server holds the message before its next delivery: {@link #min()} after the first failure, twice that after the
 * second, and so on (linear growth), never longer than {@link #max()}. Nothing is copied, nothing waits in the service
 * or in waiting queues; the cap stays the queue's {@code x-delivery-limit} ({@link Subscriber#maxAttempts()}) and its
 * dead-letter route. {@code retryAfter(d)} waits what the server says, not {@code d}. The queue is declared with
 * {@code x-delayed-retry-type = failed}, {@code x-delayed-retry-min} and {@code x-delayed-retry-max}.
 * <p>
 * On a broker older than 4.3 (which would accept the arguments and ignore them) the subscription refuses to start,
 * naming the broker's version. Overridden per queue by {@code quarkus.rabbitmq-subscriber.queues."<queue>".retry-delay.min}
 * and {@code .max}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface RetryDelay {

    /**
     * The wait after the first failure, as a duration ({@code "500ms"}, {@code "1s"}, {@code "PT2M"}); the n-th waits n
     * times as long. Empty (the default): the server does not delay retries.
     */
    String min() default "";

    /** The longest wait, as a duration. Empty (the default): no bound. */
    String max() default "";
}
