package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.invoke.Invoker;

import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;

/** Where a handler call runs: within a CDI request context, as Vert.x's {@code @ConsumeEvent} invoker does. */
interface RequestScope {

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
