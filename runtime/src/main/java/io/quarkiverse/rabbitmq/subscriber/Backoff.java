package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How long a failed delivery waits before its next attempt: {@code @Subscriber(value = "payments", maxAttempts = 5,
 * deadLetter = "payments.dead", backoff = @Backoff(initial = "1s", multiplier = 2, max = "1m"))}.
 * <p>
 * A failure is a thrown exception, a failed {@code Uni} or {@code CompletionStage}, or a {@code null} outcome. After
 * the first delivery fails, the next one comes {@link #initial()} later; each later wait is {@link #multiplier()} times
 * the one before, never longer than {@link #max()}. The copy waits where the subscription's {@link Subscriber#delay()}
 * says (in the service, a waiting queue, the delayed-message exchange), exactly as after
 * {@code Outcome.retryAfter(wait)}, and counts against {@link Subscriber#maxAttempts()} like any attempt, so the cap
 * still ends the loop: a back-off needs a cap (the build fails without one).
 * <p>
 * What does not wait: {@code Outcome.retry()} still means now, {@code Outcome.retryAfter(d)} still means {@code d}, a
 * failure of a {@link Subscriber#deadLetterOn()} type is dead-lettered at once, and a body that cannot be decoded is
 * never retried. Overridden per queue by {@code quarkus.rabbitmq-subscriber.queues."<queue>".backoff.initial},
 * {@code .multiplier} and {@code .max}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Backoff {

    /**
     * The wait after the first failure, as a duration ({@code "500ms"}, {@code "1s"}, {@code "PT2M"}). Empty (the
     * default): no back-off, a failure is retried at once.
     */
    String initial() default "";

    /** How much longer each wait is than the one before; {@code 1} waits {@link #initial()} every time. */
    double multiplier() default 2;

    /** The longest wait, as a duration. Empty (the default): no bound but the cap's. */
    String max() default "";
}
