package io.quarkiverse.rabbitmq.subscriber.runtime.observe;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * The {@link Observer} beans of this application (metrics, tracing: each registered by the build only where its
 * library is present and switched on), combined once, on first use.
 */
@Singleton
public class ApplicationObservers {

    @Inject
    @Any
    Instance<Observer> beans;

    private volatile Observers observers;

    public Observers get() {
        Observers current = observers;
        if (current == null) {
            java.util.List<Observer> found = new java.util.ArrayList<>();
            beans.forEach(found::add);
            current = found.isEmpty() ? Observers.NONE : new Observers(found);
            observers = current;
        }
        return current;
    }
}
