package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.function.Consumer;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.DelayLabel;

/**
 * {@code @Subscriber(batch = @Batch(size, maxWait))} as written, and what makes it unusable: a size below 1, a wait
 * that is no duration or not longer than zero, a prefetch that could never fill a batch.
 *
 * @param size the most messages per call, as written
 * @param maxWaitMillis how long a batch waits for more after its first message
 */
record BatchDeclaration(int size, long maxWaitMillis) {

    /**
     * @param value the annotation's {@code batch}, null where it is not written (Jandex holds only written values)
     * @param prefetch the subscription's own prefetch; 0 for the configured default
     * @return null for a handler of one message per call
     */
    static BatchDeclaration read(AnnotationValue value, int prefetch, Consumer<String> problems) {
        if (value == null) {
            return null;
        }
        AnnotationInstance batch = value.asNested();
        AnnotationValue sizeValue = batch.value("size");
        AnnotationValue maxWaitValue = batch.value("maxWait");
        int size = sizeValue == null ? 0 : sizeValue.asInt();
        String wait = maxWaitValue == null ? "100ms" : maxWaitValue.asString();
        if (size < 1) {
            problems.accept("sets batch = @Batch(size = " + size + "): a batch holds at least 1 message; give its size "
                    + "(@Batch(size = 100, maxWait = \"100ms\"))");
        }
        long maxWaitMillis = 0;
        try {
            maxWaitMillis = DelayLabel.parse(wait);
            if (maxWaitMillis <= 0) {
                problems.accept("sets @Batch(maxWait = \"" + wait + "\"): a batch waits longer than zero for more "
                        + "messages (\"100ms\", \"2s\")");
            }
        } catch (IllegalArgumentException e) {
            problems.accept("sets @Batch(maxWait = \"" + wait + "\"), which is not a duration: write \"100ms\", \"2s\" "
                    + "or \"PT1S\"");
        }
        if (size > 0 && prefetch > 0 && prefetch < size) {
            problems.accept("sets prefetch = " + prefetch + " below its @Batch(size = " + size + "): RabbitMQ would "
                    + "never send enough messages to fill a batch. Leave the prefetch unset (a batch handler's is at "
                    + "least its size) or raise it");
        }
        return new BatchDeclaration(size, maxWaitMillis);
    }
}
