package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletionStage;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.delay.InServiceDelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import jakarta.enterprise.invoke.Invoker;
import io.quarkus.arc.ManagedContext;
import io.quarkus.virtual.threads.VirtualThreadsRecorder;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Runs one delivery through its handler: decodes the payload, invokes the method where its execution model says, and
 * settles the outcome back on the delivery's event-loop context.
 * <p>
 * What a failure becomes: a handler that throws, returns a failed {@code Uni}/{@code CompletionStage}, or returns a
 * {@code null} outcome is logged with the queue, the message and the method. The first time a message fails in this
 * service it is requeued ({@code basic.reject} requeue=true); when it fails again it is rejected without requeue, so it
 * reaches the queue's dead-letter exchange where there is one. A poison message therefore costs two deliveries, never
 * an endless hot loop. Messages are recognised by their message id; see {@link FailureMemory}.
 */
public final class HandlerDispatcher {

    private static final Logger LOG = Logger.getLogger(HandlerDispatcher.class);

    private final SubscriberDefinition definition;
    private final Invoker<Object, Object> invoker;
    private final PayloadDecoder decoder;
    private final Settler settler;
    private final InServiceDelay delay;
    private final Completions completions;
    private final FailureMemory failures = new FailureMemory();

    public HandlerDispatcher(SubscriberDefinition definition, PayloadDecoder decoder, Settler settler,
            InServiceDelay delay, Context eventLoop) {
        this.definition = definition;
        this.invoker = definition.invoker.getValue();
        this.decoder = decoder;
        this.settler = settler;
        this.delay = delay;
        this.completions = new Completions(eventLoop, this::complete);
    }

    /** Called on the delivery's duplicated event-loop context, in the order deliveries arrived. */
    public void dispatch(Context context, InboundDelivery delivery) {
        settler.received(delivery);
        Object[] arguments;
        try {
            arguments = arguments(decoder.decode(delivery.body()), delivery);
        } catch (UndecodablePayloadException e) {
            LOG.errorf("Cannot decode %s on queue '%s' as %s: %s. Rejecting it without requeue (the queue's "
                    + "dead-letter exchange keeps it if the queue has one)", delivery.describe(), delivery.queue(),
                    decoder.expectedType(), e.getMessage());
            settle(delivery, Outcome.drop());
            return;
        } catch (Throwable t) {
            // Whatever else goes wrong before the handler runs still ends in a settlement.
            complete(context, delivery, new HandlerFailure(t));
            return;
        }
        try {
            switch (definition.executionModel) {
                case EVENT_LOOP -> complete(context, delivery, invoke(arguments));
                // invoke() never throws: every result, a failure included, goes back through the completions.
                case WORKER -> {
                    var started = context.executeBlocking(() -> {
                        completions.offer(context, delivery, invoke(arguments));
                        return null;
                    }, false);
                    if (started.failed()) {
                        complete(context, delivery, new HandlerFailure(started.cause()));
                    }
                }
                case VIRTUAL_THREAD -> VirtualThreadsRecorder.getCurrent()
                        .execute(() -> completions.offer(context, delivery, invoke(arguments)));
            }
        } catch (Throwable t) {
            complete(context, delivery, new HandlerFailure(t));
        }
    }

    private Object[] arguments(Object payload, InboundDelivery delivery) {
        Object[] arguments = new Object[definition.parameterCount];
        arguments[definition.payloadIndex] = payload;
        if (definition.deliveryIndex >= 0) {
            arguments[definition.deliveryIndex] = delivery;
        }
        return arguments;
    }

    /**
     * Invokes the method within a request context; returns its result, or the {@link Throwable} it threw (never
     * throws: a handler's exception must reach settlement, not the thread's uncaught handler).
     */
    private Object invoke(Object[] arguments) {
        ManagedContext requestContext = Arc.container().requestContext();
        boolean activated = !requestContext.isActive();
        if (activated) {
            requestContext.activate();
        }
        Object result;
        try {
            result = invoker.invoke(null, arguments);
        } catch (Throwable t) {
            if (activated) {
                requestContext.terminate();
            }
            return new HandlerFailure(t);
        }
        if (activated) {
            if (result instanceof CompletionStage<?> stage) {
                // The request context lives until the asynchronous result completes.
                InjectableContext.ContextState state = requestContext.getState();
                requestContext.deactivate();
                stage.whenComplete((value, failure) -> requestContext.destroy(state));
            } else {
                requestContext.terminate();
            }
        }
        return result;
    }

    /** Turns what the handler produced into an outcome and settles it on the delivery's context. */
    private void complete(Context context, InboundDelivery delivery, Object result) {
        if (result instanceof CompletionStage<?> stage) {
            stage.whenComplete((value, failure) -> {
                Object settled = failure != null ? new HandlerFailure(unwrap(failure)) : value;
                // The context may be current on a worker thread too (executeBlocking dispatches on it): settle only
                // on the event loop itself.
                if (Context.isOnEventLoopThread() && Vertx.currentContext() == context) {
                    settle(delivery, outcomeOf(delivery, settled, true));
                } else {
                    context.runOnContext(ignored -> settle(delivery, outcomeOf(delivery, settled, true)));
                }
            });
            return;
        }
        settle(delivery, outcomeOf(delivery, result, false));
    }

    private Outcome outcomeOf(InboundDelivery delivery, Object result, boolean async) {
        if (result instanceof Outcome outcome) {
            return outcome;
        }
        if (result instanceof HandlerFailure failure) {
            return failed(delivery, failure.cause);
        }
        if (result == null) {
            boolean returnsVoid = async ? definition.returnKind == SubscriberDefinition.ReturnKind.ASYNC_VOID
                    : definition.returnKind == SubscriberDefinition.ReturnKind.VOID;
            if (returnsVoid) {
                return Outcome.ack();
            }
            return failed(delivery, new NullPointerException("the handler returned a null Outcome"));
        }
        return failed(delivery, new IllegalStateException("the handler returned " + result.getClass().getName()
                + " where an Outcome was expected"));
    }

    private Outcome failed(InboundDelivery delivery, Throwable cause) {
        Outcome outcome = failures.firstFailure(delivery.messageId(), delivery.redelivered()) ? Outcome.retry()
                : Outcome.drop();
        LOG.errorf(cause, "%s failed for %s on queue '%s'; %s", definition.method, delivery.describe(),
                delivery.queue(), outcome.kind() == Outcome.Kind.RETRY
                        ? "requeueing it once (a second failure rejects it)"
                        : "it failed before: rejecting it without requeue");
        return outcome;
    }

    private void settle(InboundDelivery delivery, Outcome outcome) {
        if (outcome.kind() == Outcome.Kind.RETRY_AFTER && !delivery.isSettled()) {
            // The copy is arranged before the ack leaves: a crash in between duplicates, never loses.
            try {
                delay.hold(delivery, outcome.delay());
            } catch (RuntimeException e) {
                outcome = failed(delivery, e);
            }
        }
        settler.settle(delivery, outcome);
    }

    private static Throwable unwrap(Throwable failure) {
        if (failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null) {
            return failure.getCause();
        }
        return failure;
    }

    /** A thrown exception, carried to settlement as a value. */
    private record HandlerFailure(Throwable cause) {
    }
}
