package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.lang.annotation.Annotation;
import java.util.concurrent.CompletionStage;
import java.util.stream.Stream;

import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.invoke.Invoker;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;

/**
 * Where a handler call runs: within a CDI request context, as Vert.x's {@code @ConsumeEvent} invoker does, when the
 * application has a request-scoped bean; a plain call when it has none.
 */
public interface RequestScope {

    /**
     * A plain call: an application without a single {@code @RequestScoped} bean (its own or an extension's) has nothing
     * a request context could hold, so activating and ending one for every delivery would only cost (ArC's context
     * state, a Vert.x context local, and their compilation in the first seconds of a fresh JVM).
     */
    RequestScope NONE = (invoker, instance, arguments) -> invoker.invoke(instance, arguments);

    /**
     * {@link #ARC} if the application has a request-scoped bean, {@link #NONE} otherwise. Asked when a subscriber's
     * chain is built, of the running container: its beans are every bean the application can look up (the build
     * removed the unused ones), synthetic ones included.
     */
    static RequestScope ofApplication() {
        return of(Arc.container().beanManager().getBeans(Object.class, Any.Literal.INSTANCE).stream()
                .map(Bean::getScope));
    }

    /** {@link #ARC} if one of the application's beans has the request scope, {@link #NONE} otherwise. */
    static RequestScope of(Stream<Class<? extends Annotation>> beanScopes) {
        return beanScopes.anyMatch(scope -> scope == RequestScoped.class) ? ARC : NONE;
    }

    /**
     * Invokes the handler and returns what it returned; throws what it threw. The invoker, the bean's instance (null
     * where the invoker looks it up) and the arguments are passed as they are, so a delivery costs no extra object here.
     */
    Object invoke(Invoker<Object, Object> invoker, Object instance, Object[] arguments) throws Exception;

    /**
     * ArC's request context: activated for the call unless one is active already, and kept until an asynchronous
     * result completes (it is deactivated on this thread meanwhile, so the thread can serve other deliveries). A result
     * that completed before the handler returned ({@link DoneStages}) ends it at once, as a plain result does.
     */
    RequestScope ARC = (invoker, instance, arguments) -> {
        ManagedContext requestContext = Arc.container().requestContext();
        if (requestContext.isActive()) {
            return invoker.invoke(instance, arguments);
        }
        requestContext.activate();
        Object result;
        try {
            result = invoker.invoke(instance, arguments);
        } catch (Exception | Error e) {
            requestContext.terminate();
            throw e;
        }
        if (result instanceof CompletionStage<?> stage && !DoneStages.isDone(stage)) {
            InjectableContext.ContextState state = requestContext.getState();
            requestContext.deactivate();
            stage.whenComplete((value, failure) -> requestContext.destroy(state));
        } else {
            requestContext.terminate();
        }
        return result;
    };
}
