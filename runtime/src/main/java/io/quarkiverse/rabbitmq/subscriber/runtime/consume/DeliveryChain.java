package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.vertx.core.Context;

/**
 * Chains, once per subscription and channel, the stages a delivery passes from the client's reader thread to its
 * settlement, as Quarkus's scheduler wraps its invoker: a feature of the delivery path is one more stage in a file of
 * its own, and a stage that does not apply to a subscription is not in its chain.
 *
 * <pre>
 * route            EventLoopRoute (inbox on the event loop, into the ack window) | DirectRoute (reader thread to the
 *                  handler's thread; into the ack window with the result)
 * [gate]           ConcurrencyGate                        concurrency &gt; 0 (an inbox's: its share of the pool), through
 *                  the event loop
 * invoke           InvokeOnLoop | InvokeOffLoop           (DirectRoute calls the handling itself)
 *   handling       [KillSwitchCheck] [Observing] [InboxCheck] HandlerInvocation    on the handler's thread: the
 *                  observation begun (metrics, span), the inbox's transaction (inbox = true; an ack's outputs into the
 *                  outbox), decode, request scope, invoker
 * AwaitResult      an asynchronous result, once complete, on the delivery's event-loop context
 * SettleGuard      a bug past here still settles the delivery (requeued) and frees its place
 * ReadResult       the result read and decided (SettlementPlan): a Verdict
 * [outputs]        OutputsBeforeAck | OutboxBeforeAck     a handler that takes Outputs (with inbox = true: published
 *                  from the outbox after the commit, then acked; the rows deleted after, in batches)
 * [kill switch]    KillSwitchCounting                     a subscription with a kill switch
 * Reporting        log line, outcome counter, observation
 * Settling         the frame on the channel; the gate's place freed
 * </pre>
 */
public final class DeliveryChain {

    private static final Runnable NOTHING_TO_RELEASE = () -> {
    };

    private DeliveryChain() {
    }

    /** The route of the subscription's deliveries, which passes them along every stage after it. */
    public static DeliveryRoute of(SubscriberDefinition definition, PayloadDecoder decoder, PayloadEncoder encoder,
            ReplyTargets replies, Settlements settlements, Context eventLoop, Observers observers,
            OutcomeCounters outcomes, KillSwitch killSwitch) {
        return of(definition, decoder, encoder, replies, settlements, eventLoop, observers, outcomes, killSwitch,
                RequestScope.ARC);
    }

    /** @param requestScope where the handler is called (ArC's request context; a plain call in unit tests) */
    static DeliveryRoute of(SubscriberDefinition definition, PayloadDecoder decoder, PayloadEncoder encoder,
            ReplyTargets replies, Settlements settlements, Context eventLoop, Observers observers,
            OutcomeCounters outcomes, KillSwitch killSwitch, RequestScope requestScope) {
        SubscriptionSpec subscription = definition.subscription;
        HandlerInvocation invocation = new HandlerInvocation(definition, decoder, encoder, replies, requestScope);
        ResultReading reading = new ResultReading(definition);
        boolean takesOutputs = definition.outputsIndex >= 0;
        Inbox inbox = subscription.inbox ? io.quarkus.arc.Arc.container().instance(Inbox.class).get() : null;
        Handling handling = inbox != null
                ? new InboxCheck(inbox, subscription.queue, reading, takesOutputs, invocation)
                : invocation;
        handling = observers == Observers.NONE ? handling : new Observing(subscription.queue, observers, handling);
        handling = killSwitch == KillSwitch.NONE ? handling : new KillSwitchCheck(killSwitch::tripped, handling);
        // An inbox handler holds a pooled connection while it runs: without a bound of its own, its share of the pool.
        int concurrency = subscription.concurrency > 0 ? subscription.concurrency
                : inbox != null ? inbox.connections() : 0;
        ConcurrencyGate gate = concurrency > 0 ? new ConcurrencyGate(concurrency) : null;
        Runnable released = gate == null ? NOTHING_TO_RELEASE : gate::released;

        Decision decision = new Decision(subscription);
        VerdictStage verdicts = new Reporting(new DeliveryReporter(definition.method, subscription, outcomes),
                invocation.expectedType(), new Settling(settlements, released));
        if (killSwitch != KillSwitch.NONE) {
            verdicts = new KillSwitchCounting(killSwitch::failed, killSwitch::succeeded, verdicts);
        }
        if (takesOutputs && inbox != null) {
            verdicts = new OutboxBeforeAck(settlements, inbox, released, verdicts);
        } else if (takesOutputs) {
            verdicts = new OutputsBeforeAck(settlements, reading, decision, released, verdicts);
        }
        ResultStage results = new AwaitResult(new SettleGuard(settlements, released,
                new ReadResult(reading, decision, verdicts)));

        boolean onLoop = definition.executionModel == SubscriberDefinition.ExecutionModel.EVENT_LOOP;
        HandlerThreads threads = onLoop ? null : new HandlerThreads(definition.executionModel);
        if (!onLoop && gate == null) {
            return new DirectRoute(eventLoop, settlements, threads, handling, results);
        }
        DeliveryStage invoke = onLoop ? new InvokeOnLoop(handling, results)
                : new InvokeOffLoop(eventLoop, threads, handling, results);
        if (gate != null) {
            gate.leadsTo(invoke);
        }
        return new EventLoopRoute(eventLoop, settlements, gate != null ? gate : invoke);
    }
}
