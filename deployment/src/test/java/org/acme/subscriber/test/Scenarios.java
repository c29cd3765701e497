package org.acme.subscriber.test;

import io.quarkus.arc.Arc;

/**
 * For scenarios written as interfaces, so that several share one application (a suite class implements them and calls
 * each of their methods: QuarkusUnitTest runs only the methods a test class or its superclasses declare). An interface
 * cannot have its beans injected: it looks them up here.
 */
public final class Scenarios {

    private Scenarios() {
    }

    /** The application's bean of this type (a handler, the broker, the status). */
    public static <T> T bean(Class<T> type) {
        return Arc.container().instance(type).get();
    }
}
