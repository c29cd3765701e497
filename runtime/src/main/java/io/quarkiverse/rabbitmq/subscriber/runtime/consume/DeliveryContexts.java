package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.impl.ContextInternal;

/** Each delivery runs on a fresh duplicated context, so handler-local data does not leak between messages. */
public final class DeliveryContexts {

    private DeliveryContexts() {
    }

    /** A fresh duplicated context of the subscriber's event loop for one delivery: safe to create on any thread. */
    public static ContextInternal newContext(Context eventLoop) {
        ContextInternal context = (ContextInternal) VertxContext.createNewDuplicatedContext(eventLoop);
        VertxContextSafetyToggle.setContextSafe(context, true);
        return context;
    }
}
