package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.concurrent.CompletionStage;

import jakarta.enterprise.invoke.Invoker;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Outcomes;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.FailureInfo;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementPlan;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkus.arc.Arc;
import io.quarkus.arc.InjectableContext;
import io.quarkus.arc.ManagedContext;
import io.quarkus.virtual.threads.VirtualThreadsRecorder;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;

/**
 * Runs one delivery through its handler: decodes the payload, invokes the method where its execution model says, and
 * settles what came of it back on the delivery's event-loop context. What that sends is {@link SettlementPlan}'s
 * decision; a failure (a throw, a failed {@code Uni}/{@code CompletionStage}, a {@code null} outcome) is logged here
 * once, at ERROR, with the method, the queue and the message.
 */
public final class HandlerDispatcher {

    private static final Logger LOG = Logger.getLogger(HandlerDispatcher.class);

    private final SubscriberDefinition definition;
    private final Invoker<Object, Object> invoker;
    private final PayloadDecoder decoder;
    private final Settler settler;
    private final Completions completions;
    private final SubscriptionSpec subscription;
    private final WorkerLane workers = new WorkerLane(
            task -> io.smallrye.mutiny.infrastructure.Infrastructure.getDefaultWorkerPool().execute(task));
    /** At most this many deliveries in the handler at once; 0: as many as the prefetch lets in. */
    private final int concurrency;
    /** Deliveries started and not settled, and the ones waiting for a place: event loop only. */
    private int running;
    private boolean startingWaiting;
    private final java.util.ArrayDeque<Waiting> waiting = new java.util.ArrayDeque<>();
    private final Observers observers;
    /** Every delivery's fate, by queue (the Dev UI's live counters). */
    private final Outcomes.Counts outcomes;
    /** See {@link #takesDeliveriesDirectly()}. */
    private final boolean direct;
    /** Deliveries handed to handlers from the client's thread, not yet in the ack window. */
    private final java.util.Queue<InboundDelivery> arrivals = io.netty.util.internal.PlatformDependent.newMpscQueue();

    /**
     * Stops the subscriber (for the reason given, which readiness reports), then runs the task: a dead letter that
     * must stay in its queue is given back only once nothing of this application consumes it any more.
     */
    public interface Keeper {
        void stopThen(String reason, Runnable then);
    }

    private final Context eventLoop;
    private final Keeper keeper;
    /** What becomes of a delivery, for counters and logs. */
    private final DeliveryFate fate;

    public HandlerDispatcher(SubscriberDefinition definition, PayloadDecoder decoder, Settler settler,
            Context eventLoop, Observers observers, Outcomes outcomes, Keeper keeper) {
        this.eventLoop = eventLoop;
        this.keeper = keeper;
        this.fate = new DeliveryFate(definition.subscription);
        this.observers = observers;
        this.outcomes = outcomes.of(definition.subscription.queue);
        this.definition = definition;
        this.subscription = definition.subscription;
        this.concurrency = definition.subscription.concurrency;
        this.invoker = definition.invoker.getValue();
        this.decoder = decoder;
        this.settler = settler;
        this.direct = definition.executionModel != SubscriberDefinition.ExecutionModel.EVENT_LOOP && concurrency == 0;
        this.completions = new Completions(eventLoop, (context, delivery, result) -> {
            recordArrivals();
            complete(context, delivery, result);
        });
    }

    /**
     * True when deliveries skip the event loop on their way to the handler: off-loop handlers with no concurrency
     * bound (a bound keeps its waiting line on the event loop).
     */
    public boolean takesDeliveriesDirectly() {
        return direct;
    }

    /**
     * Called on the client's delivering thread, in delivery order, when {@link #takesDeliveriesDirectly()}: starts the
     * handler on its own thread at once. The event loop records the arrival (the delivery's place in the ack window)
     * when it next handles a completion, before that completion: a delivery's completion follows its arrival, and
     * arrivals are recorded in delivery order, so every earlier delivery is in the window, in flight or not, and a
     * multiple ack can never cover one still running.
     */
    public void arrive(Context context, InboundDelivery delivery) {
        arrivals.offer(delivery);
        try {
            submit(context, delivery);
        } catch (Throwable t) {
            completions.offer(context, delivery, new HandlerFailure(t));
        }
    }

    /** On the event loop: takes the arrivals recorded since the last call into the ack window. */
    private void recordArrivals() {
        InboundDelivery arrived;
        while ((arrived = arrivals.poll()) != null) {
            settler.received(arrived);
            running++;
        }
    }

    /** Called on the delivery's duplicated event-loop context, in the order deliveries arrived. */
    public void dispatch(Context context, InboundDelivery delivery) {
        settler.received(delivery);
        if (concurrency > 0 && running >= concurrency) {
            // Started, in arrival order, as earlier deliveries settle.
            waiting.add(new Waiting(context, delivery));
            return;
        }
        start(context, delivery);
    }

    private void start(Context context, InboundDelivery delivery) {
        running++;
        try {
            if (definition.executionModel == SubscriberDefinition.ExecutionModel.EVENT_LOOP) {
                complete(context, delivery, run(delivery));
            } else {
                submit(context, delivery);
            }
        } catch (Throwable t) {
            complete(context, delivery, new HandlerFailure(t));
        }
    }

    /**
     * Runs an off-loop handler on its thread; its result comes back through the completions. run() never throws: every
     * result, a failure included, goes back that way. The payload is decoded there too, off the event loop: a large
     * body must not stall every subscriber on it. Throws only when the pool refuses the task.
     */
    private void submit(Context context, InboundDelivery delivery) {
        if (definition.executionModel == SubscriberDefinition.ExecutionModel.WORKER) {
            // With the delivery's context current while the handler runs, as executeBlocking would have it.
            workers.submit(() -> ((ContextInternal) context).dispatch(delivery,
                    ignored -> completions.offer(context, delivery, run(delivery))));
        } else {
            VirtualThreadsRecorder.getCurrent().execute(() -> completions.offer(context, delivery, run(delivery)));
        }
    }

    /**
     * Decodes the payload and invokes the handler, on the thread the handler runs on. Returns the handler's result, an
     * {@link Undecodable} or a {@link HandlerFailure}; never throws.
     */
    private Object run(InboundDelivery delivery) {
        Observation observation = observers.processing(subscription.queue, delivery.properties(), delivery.body().length);
        delivery.observation(observation);
        try {
            return decodeAndInvoke(delivery);
        } finally {
            observation.handlerReturned();
        }
    }

    private Object decodeAndInvoke(InboundDelivery delivery) {
        Object payload;
        try {
            payload = decoder.decode(delivery.body());
        } catch (UndecodablePayloadException e) {
            return new Undecodable(e);
        } catch (Throwable t) {
            return new HandlerFailure(t);
        }
        try {
            return invoke(arguments(payload, delivery));
        } catch (Throwable t) {
            // Activating the request context or building the arguments failed: still a result to settle.
            return new HandlerFailure(t);
        }
    }

    /**
     * A delivery settled: waiting ones may start. On the event loop. A delivery started here may settle at once and
     * come back here: that nested call only counts, and the loop below goes on, so a long queue of waiting deliveries
     * never deepens the stack.
     */
    private void released() {
        running--;
        if (startingWaiting) {
            return;
        }
        startingWaiting = true;
        try {
            Waiting next;
            while (running < concurrency && (next = waiting.poll()) != null) {
                start(next.context(), next.delivery());
            }
        } finally {
            startingWaiting = false;
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
                    settle(delivery, settled, true);
                } else {
                    context.runOnContext(ignored -> settle(delivery, settled, true));
                }
            });
            return;
        }
        settle(delivery, result, false);
    }

    private HandlerResult outcomeOf(Object result, boolean async) {
        if (result instanceof Outcome outcome) {
            return HandlerResult.handled(outcome);
        }
        if (result instanceof HandlerFailure failure) {
            return new HandlerResult.Failed(FailureInfo.of(failure.cause));
        }
        if (result == null) {
            boolean returnsVoid = async ? definition.returnKind == SubscriberDefinition.ReturnKind.ASYNC_VOID
                    : definition.returnKind == SubscriberDefinition.ReturnKind.VOID;
            return returnsVoid ? HandlerResult.handled(Outcome.ack())
                    : failure(new NullPointerException("the handler returned a null Outcome"));
        }
        return failure(new IllegalStateException("the handler returned " + result.getClass().getName()
                + " where an Outcome was expected"));
    }

    private static HandlerResult failure(Throwable cause) {
        return new HandlerResult.Failed(FailureInfo.of(cause));
    }

    private void settle(InboundDelivery delivery, Object result, boolean async) {
        // A second result for the same delivery (a bug) settles nothing and frees no place.
        boolean first = !delivery.isSettled();
        try {
            settleNow(delivery, result, async);
        } catch (Throwable t) {
            LOG.errorf(t, "Settling %s on queue '%s' failed; requeueing it", delivery.describe(), delivery.queue());
            if (!delivery.isSettled()) {
                settler.settle(delivery, Settlement.REQUEUE);
            }
        }
        if (first && delivery.isSettled()) {
            released();
        }
    }

    private void settleNow(InboundDelivery delivery, Object result, boolean async) {
        if (result instanceof Undecodable undecodable) {
            UndecodablePayloadException e = undecodable.cause();
            Settlement settlement = SettlementPlan.decide(subscription, delivery.retryCount(), fate.deliveryCount(delivery),
                    delivery.redelivered(), new HandlerResult.Undecodable(FailureInfo.of(e)));
            LOG.errorf("Cannot decode %s on queue '%s' as %s: %s. %s", delivery.describe(), delivery.queue(),
                    decoder.expectedType(), e.getMessage(), settlement instanceof Settlement.Republish republish
                            ? "Publishing it to dead-letter queue '" + republish.queue() + "'"
                            : settlement == Settlement.KEEP ? DeliveryFate.capitalized(DeliveryFate.kept(delivery))
                                    : "Rejecting it without requeue (the queue's dead-letter exchange keeps it if the "
                                            + "queue has one)");
            observe(delivery, fate.deadLettered(settlement, delivery) ? Outcomes.DEAD_LETTER : Outcomes.UNDECODABLE,
                    e.getClass().getName());
            carryOut(delivery, settlement, delivery.describe() + " cannot be decoded as " + decoder.expectedType());
            return;
        }
        HandlerResult outcome = outcomeOf(result, async);
        Settlement settlement = SettlementPlan.decide(subscription, delivery.retryCount(), fate.deliveryCount(delivery),
                delivery.redelivered(), outcome);
        if (outcome instanceof HandlerResult.Failed failed) {
            // Each failure is logged once: one line at WARN while the message gets another delivery, and at ERROR,
            // with the stack trace, when it is given up (rejected without requeue, dead-lettered or kept), so one
            // poison message is one ERROR and one stack trace.
            Throwable cause = result instanceof HandlerFailure failure ? failure.cause : null;
            boolean retried = settlement == Settlement.REQUEUE || (settlement instanceof Settlement.Republish republish
                    && republish.target() == Settlement.Target.COPY);
            String what = failed.failure().type() + ": " + failed.failure().message();
            if (retried) {
                LOG.warnf("%s failed for %s on queue '%s' (%s); %s", definition.method, delivery.describe(),
                        delivery.queue(), what, DeliveryFate.whatFollows(settlement, delivery));
                LOG.debugf(cause, "The failure of %s for %s on queue '%s'", definition.method, delivery.describe(),
                        delivery.queue());
            } else {
                LOG.errorf(cause, "%s failed for %s on queue '%s'%s; %s", definition.method, delivery.describe(),
                        delivery.queue(), cause == null ? ": " + failed.failure().message() : "",
                        DeliveryFate.whatFollows(settlement, delivery));
            }
            observe(delivery, fate.deadLettered(settlement, delivery) ? Outcomes.DEAD_LETTER : Outcomes.FAILURE,
                    failed.failure().type());
            carryOut(delivery, settlement, definition.method + " failed for " + delivery.describe() + " (" + what
                    + ")");
            return;
        }
        Outcome handled = ((HandlerResult.Handled) outcome).outcome();
        boolean deadLettered = fate.deadLettered(settlement, delivery);
        if (deadLettered && handled.kind() != Outcome.Kind.DROP) {
            // A retry or retryAfter that used the last attempt: the message is given up. The handler chose it (no
            // failure), so INFO, one line.
            LOG.infof("%s returned %s for %s on queue '%s' at its last attempt: %s", definition.method,
                    handled.kind(), delivery.describe(), delivery.queue(),
                    settlement instanceof Settlement.Republish republish
                            ? "publishing it to dead-letter queue '" + republish.queue() + "'"
                            : "RabbitMQ dead-letters it to '" + subscription.deadLetter + "' at the queue's limit");
        }
        observe(delivery, deadLettered ? Outcomes.DEAD_LETTER : DeliveryFate.label(handled, settlement), null);
        settler.settle(delivery, settlement);
    }

    /**
     * Sends the settlement; a kept dead letter waits until the subscriber stopped consuming, so that no consumer of
     * this application takes it again, then goes back to the head of its queue.
     */
    private void carryOut(InboundDelivery delivery, Settlement settlement, String reason) {
        if (settlement != Settlement.KEEP) {
            settler.settle(delivery, settlement);
            return;
        }
        keeper.stopThen("stopped at a dead letter it cannot handle: " + reason
                + "; fix or move the message, then restart the application", () -> eventLoop.runOnContext(ignored -> {
                    if (!delivery.isSettled()) {
                        settler.settle(delivery, Settlement.KEEP);
                        released();
                    }
                }));
    }

    private void observe(InboundDelivery delivery, String outcome, String errorType) {
        outcomes.count(outcome);
        delivery.observation().settled(outcome, errorType);
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

    /** A body that could not be decoded: the handler never ran. */
    private record Undecodable(UndecodablePayloadException cause) {
    }

    private record Waiting(Context context, InboundDelivery delivery) {
    }
}
