package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
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
 * [RetryInPlace]   a partition's: a retry (Settlement.Again) held unsettled, its gate place kept, and handed to the
 *                  invoke stage again after its delay on the runtime's clock
 * Settling         the frame on the channel; the gate's place freed
 * </pre>
 *
 * A batch handler's ({@code @Batch}) chain:
 *
 * <pre>
 * EventLoopRoute   as above
 * BatchCollector   batches closed at size or maxWait (the runtime's clock); at most concurrency batches in the
 *                  handler (an inbox's: its share of the pool)
 * InvokeBatch      on the loop, or on the handler's thread and back
 *   handling       [KillSwitchCheck] [BatchObserving] [BatchInboxCheck] BatchInvocation: each body decoded (one that
 *                  cannot be is settled alone), one call with the lists
 * BatchResults     an asynchronous result awaited; one result per item (BatchReading); [BatchOutputs] published
 *                  before any ack; then each item through SettleGuard, ReadResult, [KillSwitchCounting], Reporting,
 *                  Settling as above; the batch's place freed
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
            OutcomeCounters outcomes, KillSwitch killSwitch, Clock clock, InFlight inFlight) {
        return of(definition, decoder, encoder, replies, settlements, eventLoop, observers, outcomes, killSwitch, clock,
                inFlight, RequestScope.ofApplication());
    }

    /**
     * @param clock the runtime's clock, on which a batch's {@code maxWait} passes
     * @param inFlight told of the deliveries open batches hold for the clock
     * @param requestScope where the handler is called (ArC's request context when the application has a request-scoped
     *        bean; a plain call otherwise, and in unit tests)
     */
    static DeliveryRoute of(SubscriberDefinition definition, PayloadDecoder decoder, PayloadEncoder encoder,
            ReplyTargets replies, Settlements settlements, Context eventLoop, Observers observers,
            OutcomeCounters outcomes, KillSwitch killSwitch, Clock clock, InFlight inFlight,
            RequestScope requestScope) {
        SubscriptionSpec subscription = definition.subscription;
        HandlerInvocation invocation = new HandlerInvocation(definition, decoder, encoder, replies, requestScope);
        ResultReading reading = new ResultReading(definition);
        boolean takesOutputs = definition.outputsIndex >= 0;
        Inbox inbox = subscription.inbox ? io.quarkus.arc.Arc.container().instance(Inbox.class).get() : null;
        // An inbox handler holds a pooled connection while it runs: without a bound of its own, its share of the pool.
        int concurrency = subscription.concurrency > 0 ? subscription.concurrency
                : inbox != null ? inbox.connections() : 0;
        boolean onLoop = definition.executionModel == SubscriberDefinition.ExecutionModel.EVENT_LOOP;
        HandlerThreads threads = onLoop ? null : new HandlerThreads(definition.executionModel);
        if (definition.batches()) {
            // A batch's place is freed when its results are back (BatchCollector), not per item.
            DeliveryReporter reporter = new DeliveryReporter(definition.method, subscription, outcomes);
            VerdictStage verdicts = verdicts(reporter, invocation, killSwitch,
                    new Settling(settlements, NOTHING_TO_RELEASE));
            return batches(definition, decoder, invocation, inbox, takesOutputs, concurrency, threads,
                    new SettleGuard(settlements, NOTHING_TO_RELEASE,
                            new ReadResult(reading, new Decision(subscription), verdicts)),
                    reporter, settlements, eventLoop, observers, killSwitch, clock, inFlight);
        }
        Handling<InboundDelivery> handling = inbox != null
                ? new InboxCheck(inbox, subscription.queue, reading, takesOutputs, invocation)
                : invocation;
        handling = observers == Observers.NONE ? handling : new Observing(subscription.queue, observers, handling);
        handling = killSwitch == KillSwitch.NONE ? handling : new KillSwitchCheck<>(killSwitch::tripped, handling);
        ConcurrencyGate gate = concurrency > 0 ? new ConcurrencyGate(concurrency) : null;
        Runnable released = gate == null ? NOTHING_TO_RELEASE : gate::released;

        Decision decision = new Decision(subscription);
        RetryInPlace inPlace = subscription.retriesInPlace()
                ? new RetryInPlace(clock, eventLoop, inFlight, gate, settlements, new Settling(settlements, released))
                : null;
        VerdictStage verdicts = verdicts(new DeliveryReporter(definition.method, subscription, outcomes), invocation,
                killSwitch, inPlace != null ? inPlace : new Settling(settlements, released));
        if (takesOutputs && inbox != null) {
            verdicts = new OutboxBeforeAck(settlements, inbox, released, verdicts);
        } else if (takesOutputs) {
            verdicts = new OutputsBeforeAck(settlements, reading, decision, released, verdicts);
        }
        ResultStage results = new AwaitResult(new SettleGuard(settlements, released,
                new ReadResult(reading, decision, verdicts)));

        if (!onLoop && gate == null) {
            return new DirectRoute(eventLoop, settlements, threads, handling, results);
        }
        DeliveryStage invoke = onLoop ? new InvokeOnLoop(handling, results)
                : new InvokeOffLoop(eventLoop, threads, handling, results);
        if (inPlace != null) {
            invoke = inPlace.around(invoke);
        }
        if (gate != null) {
            gate.leadsTo(invoke);
        }
        return new EventLoopRoute(eventLoop, settlements, gate != null ? gate : invoke);
    }

    /**
     * The last stages of every delivery, a batch's items included: [kill switch counting] reporting, then
     * {@code settling} (a partition's: [RetryInPlace] settling).
     */
    private static VerdictStage verdicts(DeliveryReporter reporter, HandlerInvocation invocation,
            KillSwitch killSwitch, VerdictStage settling) {
        VerdictStage verdicts = new Reporting(reporter, invocation.expectedType(), settling);
        if (killSwitch != KillSwitch.NONE) {
            verdicts = new KillSwitchCounting(killSwitch::failed, killSwitch::succeeded, verdicts);
        }
        return verdicts;
    }

    /**
     * A batch handler's route: through the event loop into the {@link BatchCollector}, whose closed batches are handled
     * ({@link InvokeBatch}: [kill switch] [observing] [inbox] {@link BatchInvocation}) and come back to
     * {@link BatchResults}, which passes each item to {@code items}, the single path's last stages.
     */
    private static DeliveryRoute batches(SubscriberDefinition definition, PayloadDecoder decoder,
            HandlerInvocation invocation, Inbox inbox, boolean takesOutputs, int concurrency, HandlerThreads threads,
            ResultStage items, DeliveryReporter reporter, Settlements settlements, Context eventLoop,
            Observers observers, KillSwitch killSwitch, Clock clock, InFlight inFlight) {
        String queue = definition.subscription.queue;
        BatchReading reading = new BatchReading(definition);
        Handling<DeliveryBatch> handling = new BatchInvocation(definition, decoder, invocation);
        handling = inbox == null ? handling : new BatchInboxCheck(inbox, queue, reading, handling);
        handling = observers == Observers.NONE ? handling : new BatchObserving(queue, observers, handling);
        handling = killSwitch == KillSwitch.NONE ? handling : new KillSwitchCheck<>(killSwitch::tripped, handling);
        BatchResults results = new BatchResults(reading, takesOutputs ? new BatchOutputs(settlements, inbox) : null,
                items, settlements, reporter);
        BatchCollector collector = new BatchCollector(definition.batchSize, definition.batchMaxWaitMillis,
                concurrency, clock, eventLoop, inFlight);
        results.finishing(collector::finished);
        collector.leadsTo(new InvokeBatch(threads, handling, results));
        return new EventLoopRoute(eventLoop, settlements, collector, false);
    }
}
