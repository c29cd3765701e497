package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * The failures a subscription dead-letters at once instead of retrying ({@code @Subscriber(deadLetterOn)}): the
 * exception types, loaded once with the application's class loader, and whether a failure is one of them or of a
 * subtype.
 */
public final class DeadLetterOn {

    private final List<Class<?>> types;

    private DeadLetterOn(List<Class<?>> types) {
        this.types = types;
    }

    static DeadLetterOn of(SubscriptionSpec subscription) {
        List<Class<?>> types = new ArrayList<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (String name : subscription.deadLetterOn) {
            try {
                types.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("Queue '" + subscription.queue + "': the deadLetterOn type " + name
                        + " cannot be loaded", e);
            }
        }
        return new DeadLetterOn(List.copyOf(types));
    }

    boolean matches(Throwable failure) {
        if (failure == null) {
            return false;
        }
        for (Class<?> type : types) {
            if (type.isInstance(failure)) {
                return true;
            }
        }
        return false;
    }
}
