package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.Queue;
import java.util.concurrent.CompletionStage;

import org.jboss.logging.Logger;

import io.netty.util.internal.PlatformDependent;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.FailureInfo;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementPlan;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Takes a subscriber's deliveries from arrival to settlement: into the ack window, through the concurrency gate, to
 * the handler on its thread ({@link HandlerInvocation}, run where the {@link DeliveryRoute} says), and back on the
 * subscriber's event loop, where what came of it is read ({@link ResultReading}), decided ({@link SettlementPlan}),
 * reported once ({@link DeliveryReporter}) and sent ({@link Settler}), outputs first ({@link OutputsBeforeAck}).
 */
public final class HandlerDispatcher {

    private static final Logger LOG = Logger.getLogger(HandlerDispatcher.class);

    private final SubscriptionSpec subscription;
    private final DeliveryRoute route;
    private final HandlerInvocation invocation;
    private final HandlerThreads threads;
    private final ConcurrencyGate gate;
    private final Settler settler;
    private final DeliveryReporter reporter;
    private final Completions completions;
    private final Context eventLoop;
    /** What the handler's result means. */
    private final ResultReading reading;
    /** The outputs of a handling that answered {@code ack}, published before the ack. */
    private final OutputsBeforeAck outputsBeforeAck;
    /** The result of a delivery its handler never ran for: the kill switch was tripped when it arrived. */
    private static final Object NOT_RUN = new Object();
    private final io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch killSwitch;
    /** {@link DeliveryRoute#DIRECT}: deliveries handed to handlers from the reader thread, not yet in the ack window. */
    private final Queue<InboundDelivery> arrivals = PlatformDependent.newMpscQueue();

    /** @param replies where the handler's {@code Outputs.reply} may send */
    public HandlerDispatcher(SubscriberDefinition definition, PayloadDecoder decoder,
            io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder encoder,
            io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets replies, Settler settler,
            Context eventLoop, Observers observers, OutcomeCounters outcomes,
            io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch killSwitch) {
        this.killSwitch = killSwitch;
        this.subscription = definition.subscription;
        this.route = DeliveryRoute.of(definition);
        this.invocation = new HandlerInvocation(definition, decoder, encoder, replies, observers, RequestScope.ARC);
        this.threads = new HandlerThreads(definition.executionModel);
        this.gate = new ConcurrencyGate(subscription.concurrency, this::start);
        this.settler = settler;
        this.reporter = new DeliveryReporter(definition.method, subscription, outcomes);
        this.eventLoop = eventLoop;
        this.reading = new ResultReading(definition);
        this.outputsBeforeAck = new OutputsBeforeAck(settler, reporter, killSwitch, gate, reading, this::decide);
        this.completions = new Completions(eventLoop, (context, delivery, result) -> {
            recordArrivals();
            complete(context, delivery, result);
        });
    }

    /** True when deliveries skip the event loop on their way to the handler ({@link DeliveryRoute#DIRECT}). */
    public boolean takesDeliveriesDirectly() {
        return route == DeliveryRoute.DIRECT;
    }

    /**
     * Called on the client's delivering thread, in delivery order, when {@link #takesDeliveriesDirectly()}: starts the
     * handler on its own thread at once. The event loop records the arrival (the delivery's place in the ack window)
     * when it next handles a completion, before that completion: a delivery's completion follows its arrival, and
     * arrivals are recorded in delivery order, so every earlier delivery is in the window, in flight or not, and a
     * multiple ack can never cover one still running.
     */
    public void arrive(Context context, InboundDelivery delivery) {
        settler.arrived(delivery);
        arrivals.offer(delivery);
        try {
            threads.run(context, delivery, () -> completions.offer(context, delivery,
                    killSwitch.tripped() ? NOT_RUN : invocation.run(delivery)));
        } catch (Throwable t) {
            completions.offer(context, delivery, new HandlerInvocation.Failed(t));
        }
    }

    /** On the event loop: takes the arrivals recorded since the last call into the ack window. */
    private void recordArrivals() {
        InboundDelivery arrived;
        while ((arrived = arrivals.poll()) != null) {
            settler.received(arrived);
            gate.startedElsewhere();
        }
    }

    /** Called on the delivery's duplicated event-loop context, in the order deliveries arrived. */
    public void dispatch(Context context, InboundDelivery delivery) {
        settler.arrived(delivery);
        settler.received(delivery);
        gate.arrived(context, delivery);
    }

    /** A delivery the gate let through, on the event loop. */
    private void start(Context context, InboundDelivery delivery) {
        if (killSwitch.tripped()) {
            complete(context, delivery, NOT_RUN);
            return;
        }
        try {
            if (route == DeliveryRoute.EVENT_LOOP) {
                complete(context, delivery, invocation.run(delivery));
            } else {
                // Decoded there too, off the event loop: a large body must not stall every subscriber on it.
                threads.run(context, delivery, () -> completions.offer(context, delivery, invocation.run(delivery)));
            }
        } catch (Throwable t) {
            complete(context, delivery, new HandlerInvocation.Failed(t));
        }
    }

    /**
     * Settles a plain result at once; an asynchronous one once it completes, on the delivery's event-loop context (at
     * once too when it completed before the handler returned: {@link DoneStages}).
     */
    private void complete(Context context, InboundDelivery delivery, Object result) {
        if (!(result instanceof CompletionStage<?> stage)) {
            settle(delivery, result, false);
        } else if (DoneStages.isDone(stage)) {
            settleOn(context, delivery, DoneStages.resultOf(stage));
        } else {
            stage.whenComplete((value, failure) -> settleOn(context, delivery,
                    failure != null ? new HandlerInvocation.Failed(DoneStages.unwrap(failure)) : value));
        }
    }

    /** Settles what an asynchronous result came to, on the delivery's event-loop context. */
    private void settleOn(Context context, InboundDelivery delivery, Object settled) {
        // The context may be current on a worker thread too (executeBlocking dispatches on it): settle only on the
        // event loop itself.
        if (Context.isOnEventLoopThread() && Vertx.currentContext() == context) {
            settle(delivery, settled, true);
        } else {
            context.runOnContext(ignored -> settle(delivery, settled, true));
        }
    }

    private void settle(InboundDelivery delivery, Object result, boolean async) {
        // A second result for the same delivery (a bug) settles nothing and frees no place.
        boolean first = !delivery.isSettled();
        try {
            decideAndSend(delivery, result, async);
        } catch (Throwable t) {
            LOG.errorf(t, "Settling %s on queue '%s' failed; requeueing it", delivery.describe(), delivery.queue());
            if (!delivery.isSettled()) {
                settler.settle(delivery, Settlement.REQUEUE);
            }
        }
        if (first && delivery.isSettled()) {
            gate.released();
        }
    }

    private void decideAndSend(InboundDelivery delivery, Object result, boolean async) {
        // Whatever the outcome, the handler's outputs are closed now: published on ack, else dropped.
        java.util.List<io.quarkiverse.rabbitmq.subscriber.runtime.output.Output> outputs = delivery.takeOutputs();
        if (result == NOT_RUN) {
            // Paused by its kill switch: back to the head of its queue, unhandled and uncounted.
            settler.settle(delivery, Settlement.KEEP);
            return;
        }
        if (result instanceof HandlerInvocation.Undecodable undecodable) {
            Settlement settlement = decide(delivery, new HandlerResult.Undecodable(FailureInfo.of(undecodable.cause())));
            reporter.undecodable(delivery, invocation.expectedType(), undecodable.cause(), settlement);
            settler.settle(delivery, settlement);
            return;
        }
        HandlerResult outcome = reading.read(result, async);
        if (outcome instanceof HandlerResult.Failed) {
            killSwitch.failed();
        } else {
            killSwitch.succeeded();
        }
        Settlement settlement = decide(delivery, outcome);
        if (outcome instanceof HandlerResult.Failed failed) {
            Throwable cause = result instanceof HandlerInvocation.Failed thrown ? thrown.cause() : null;
            reporter.failed(delivery, failed, cause, settlement);
            settler.settle(delivery, settlement);
            return;
        }
        Outcome handled = ((HandlerResult.Handled) outcome).outcome();
        if (settlement instanceof Settlement.Ack && !outputs.isEmpty()) {
            outputsBeforeAck.publishThenAck(delivery, handled, outputs);
            return;
        }
        reporter.handled(delivery, handled, settlement);
        settler.settle(delivery, settlement);
    }

    private Settlement decide(InboundDelivery delivery, HandlerResult result) {
        return SettlementPlan.decide(subscription, delivery.retryCount(), reporter.deliveryCount(delivery),
                delivery.redelivered(), result);
    }
}
