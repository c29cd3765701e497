package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.stream.Stream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;

/**
 * Handlers are called in a request context only where the application has a request-scoped bean (the in-process
 * scenario {@code RequestContextScenario} proves the context itself in an application that has one).
 */
class RequestScopeTest {

    @Test
    void anApplicationWithARequestScopedBeanCallsItsHandlersInARequestContext() {
        assertSame(RequestScope.ARC,
                RequestScope.of(Stream.of(Singleton.class, RequestScoped.class, ApplicationScoped.class)));
    }

    @Test
    void anApplicationWithoutOneCallsThemPlainly() throws Exception {
        assertSame(RequestScope.NONE, RequestScope.of(Stream.of(Singleton.class, ApplicationScoped.class, Dependent.class)));
        assertEquals("called with [a]", RequestScope.NONE.invoke((instance, arguments) -> "called with " + java.util.Arrays
                .toString(arguments), null, new Object[] { "a" }));
    }
}
