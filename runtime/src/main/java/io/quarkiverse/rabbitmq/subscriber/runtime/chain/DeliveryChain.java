package io.quarkiverse.rabbitmq.subscriber.runtime.chain;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchCollector;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchInvocation;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchObserving;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchResults;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.DeliveryBatch;
import io.quarkiverse.rabbitmq.subscriber.runtime.batch.InvokeBatch;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.AwaitResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ConcurrencyGate;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryReporter;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DirectRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.EventLoopRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerInvocation;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerThreads;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InvokeOffLoop;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InvokeOnLoop;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Observing;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ReadResult;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Reporting;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.RequestScope;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ResultReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.ResultStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Settling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.VerdictStage;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.BatchInboxCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.Inbox;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.InboxCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.OutboxBeforeAck;
import io.quarkiverse.rabbitmq.subscriber.runtime.killswitch.KillSwitchCheck;
import io.quarkiverse.rabbitmq.subscriber.runtime.killswitch.KillSwitchCounting;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.OutputsBeforeAck;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets;
import io.quarkiverse.rabbitmq.subscriber.runtime.partition.RetryInPlace;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlements;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.vertx.core.Context;

/**
 * The one place a subscription's delivery path is assembled, once per subscription and channel, as Quarkus's
 * scheduler wraps its invoker: the core's stages ({@code consume}, then {@code settle} at the end) and, where the
 * subscription asks for them, the features' (kill switch, inbox, outputs, partition retries, batches), each a stage in
 * a package of its own. A stage that does not apply to a subscription is not in its chain. Read {@link #of} top to
 * bottom: it is the way of one delivery, in order.
 *
 * <pre>
 * 1 route          EventLoopRoute (through the event loop) | DirectRoute (reader thread to the handler's thread)
 *                  every delivery takes its place in the ack window as it arrives (Settlements.arrived)
 * 2 [gate]         ConcurrencyGate                  concurrency &gt; 0 (an inbox's: its share of the pool)
 * 3 invoke         InvokeOnLoop | InvokeOffLoop     (DirectRoute calls the handling itself); [RetryInPlace] around it
 * 4 handling       [KillSwitchCheck] [Observing] [InboxCheck] HandlerInvocation      on the handler's thread
 * 5 AwaitResult    an asynchronous result, once complete, on the delivery's event-loop context
 * 6 ReadResult     what the handler returned, read and decided once: a Verdict (a bug past here still settles the
 *                  delivery, requeued, and frees its place)
 * 7 verdicts       [OutputsBeforeAck | OutboxBeforeAck] [KillSwitchCounting] Reporting [RetryInPlace]
 * 8 Settling       the verdict's frame on the channel (Settlements.settle); the gate's place freed
 * </pre>
 *
 * A batch handler's ({@code @Batch}) way: 1 EventLoopRoute, 2 BatchCollector (batches closed at size or maxWait, at most
 * concurrency in the handler), 3 InvokeBatch, 4 [KillSwitchCheck] [BatchObserving] [BatchInboxCheck] BatchInvocation,
 * 5 BatchResults (one result per item, [BatchOutputs] before any ack), then each item through 6-8 as above.
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
     * @param clock the runtime's clock, on which a batch's {@code maxWait} and a partition's retry delay pass
     * @param inFlight told of the deliveries held for the clock (open batches, partition retries)
     * @param requestScope where the handler is called (ArC's request context when the application has a request-scoped
     *        bean; a plain call otherwise, and in unit tests)
     */
    static DeliveryRoute of(SubscriberDefinition definition, PayloadDecoder decoder, PayloadEncoder encoder,
            ReplyTargets replies, Settlements settlements, Context eventLoop, Observers observers,
            OutcomeCounters outcomes, KillSwitch killSwitch, Clock clock, InFlight inFlight,
            RequestScope requestScope) {
        Parts parts = new Parts(definition, decoder, encoder, replies, settlements, eventLoop, observers, outcomes,
                killSwitch, clock, inFlight, requestScope);
        return definition.batches() ? parts.batchPath() : parts.singlePath();
    }

    /** What every stage of one subscription's chain is made from. */
    private static final class Parts {

        final SubscriberDefinition definition;
        final SubscriptionSpec subscription;
        final PayloadDecoder decoder;
        final Settlements settlements;
        final Context eventLoop;
        final Observers observers;
        final KillSwitch killSwitch;
        final Clock clock;
        final InFlight inFlight;
        final HandlerInvocation invocation;
        final ResultReading reading;
        final DeliveryReporter reporter;
        /** The inbox of an {@code inbox = true} subscription; null otherwise. */
        final Inbox inbox;
        final boolean takesOutputs;
        final boolean onLoop;
        /** The handler's threads off the event loop; null for an event-loop handler. */
        final HandlerThreads threads;
        /** How many handlers run at once (an inbox's: its share of the pool); 0 for no bound. */
        final int concurrency;

        Parts(SubscriberDefinition definition, PayloadDecoder decoder, PayloadEncoder encoder, ReplyTargets replies,
                Settlements settlements, Context eventLoop, Observers observers, OutcomeCounters outcomes,
                KillSwitch killSwitch, Clock clock, InFlight inFlight, RequestScope requestScope) {
            this.definition = definition;
            this.subscription = definition.subscription;
            this.decoder = decoder;
            this.settlements = settlements;
            this.eventLoop = eventLoop;
            this.observers = observers;
            this.killSwitch = killSwitch;
            this.clock = clock;
            this.inFlight = inFlight;
            this.takesOutputs = definition.outputsIndex >= 0;
            HandlerOutputs.Factory outputs = takesOutputs
                    ? (replyTo, correlationId, what) -> new HeldOutputs(encoder, replyTo, correlationId, what, replies,
                            definition.subscription.broker)
                    : null;
            this.invocation = new HandlerInvocation(definition, decoder, outputs, requestScope);
            this.reading = new ResultReading(definition);
            this.reporter = new DeliveryReporter(definition.method, subscription, outcomes);
            this.inbox = subscription.inbox ? io.quarkus.arc.Arc.container().instance(Inbox.class).get() : null;
            // An inbox handler holds a pooled connection while it runs: without a bound of its own, its share of the pool.
            this.concurrency = subscription.concurrency > 0 ? subscription.concurrency
                    : inbox != null ? inbox.connections() : 0;
            this.onLoop = definition.executionModel == SubscriberDefinition.ExecutionModel.EVENT_LOOP;
            this.threads = onLoop ? null : new HandlerThreads(definition.executionModel);
        }

        /** One delivery at a time: steps 1 to 8. */
        DeliveryRoute singlePath() {
            // 2 [gate]: its place is freed by the last stage (8), or held across a partition's retry.
            ConcurrencyGate gate = concurrency > 0 ? new ConcurrencyGate(concurrency) : null;
            Runnable released = gate == null ? NOTHING_TO_RELEASE : gate::released;
            RetryInPlace inPlace = subscription.retriesInPlace()
                    ? new RetryInPlace(clock, eventLoop, inFlight, gate, settlements, new Settling(settlements, released))
                    : null;
            // 4 handling, on the handler's thread
            Handling<InboundDelivery> handling = DeliveryChain.<Handling<InboundDelivery>> around(invocation,
                    killSwitch == KillSwitch.NONE ? null : next -> new KillSwitchCheck<>(killSwitch::tripped, next),
                    observers == Observers.NONE ? null : next -> new Observing(subscription.queue, observers, next),
                    inbox == null ? null : next -> new InboxCheck(inbox, subscription.queue, reading, takesOutputs, next));
            // 5-8 the result, on the event loop, to its frame
            ResultStage results = new AwaitResult(new ReadResult(settlements, released, reading,
                    verdicts(released, inPlace != null ? inPlace : new Settling(settlements, released))));
            // 1 route and 3 invoke
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
         * 7 the verdict's stages, in order, before {@code settling}: the outputs published before an ack (from the
         * outbox after the commit with an inbox), the kill switch's count, the report.
         */
        VerdictStage verdicts(Runnable released, VerdictStage settling) {
            return DeliveryChain.<VerdictStage> around(settling,
                    !takesOutputs ? null
                            : inbox != null ? next -> new OutboxBeforeAck(settlements, released, next)
                                    : next -> new OutputsBeforeAck(settlements, reading, released, next),
                    killSwitch == KillSwitch.NONE ? null
                            : next -> new KillSwitchCounting(killSwitch::failed, killSwitch::succeeded, next),
                    next -> new Reporting(reporter, invocation.expectedType(), next));
        }

        /**
         * A batch handler's way: through the event loop into the {@link BatchCollector}, whose closed batches are
         * handled ({@link InvokeBatch}) and come back to {@link BatchResults}, which passes each item to steps 6-8.
         * A batch's place is freed when its results are back (the collector's), not per item.
         */
        DeliveryRoute batchPath() {
            String queue = subscription.queue;
            BatchReading batchReading = new BatchReading(definition);
            Handling<DeliveryBatch> handling = DeliveryChain.<Handling<DeliveryBatch>> around(
                    new BatchInvocation(definition, decoder, invocation),
                    killSwitch == KillSwitch.NONE ? null : next -> new KillSwitchCheck<>(killSwitch::tripped, next),
                    observers == Observers.NONE ? null : next -> new BatchObserving(queue, observers, next),
                    inbox == null ? null : next -> new BatchInboxCheck(inbox, queue, batchReading, next));
            ResultStage items = new ReadResult(settlements, NOTHING_TO_RELEASE, reading,
                    DeliveryChain.<VerdictStage> around(new Settling(settlements, NOTHING_TO_RELEASE),
                            killSwitch == KillSwitch.NONE ? null
                                    : next -> new KillSwitchCounting(killSwitch::failed, killSwitch::succeeded, next),
                            next -> new Reporting(reporter, invocation.expectedType(), next)));
            BatchResults results = new BatchResults(batchReading, takesOutputs ? new BatchOutputs(settlements) : null,
                    items, settlements, reporter);
            BatchCollector collector = new BatchCollector(definition.batchSize, definition.batchMaxWaitMillis,
                    concurrency, clock, eventLoop, inFlight);
            results.finishing(collector::finished);
            collector.leadsTo(new InvokeBatch(threads, handling, results));
            return new EventLoopRoute(eventLoop, settlements, collector, false);
        }
    }

    /**
     * {@code last} behind the stages listed in the order a delivery meets them (null: not in this chain): each wraps
     * the ones after it.
     */
    @SafeVarargs
    private static <S> S around(S last, UnaryOperator<S>... inOrder) {
        List<UnaryOperator<S>> present = new ArrayList<>(inOrder.length);
        for (UnaryOperator<S> stage : inOrder) {
            if (stage != null) {
                present.add(stage);
            }
        }
        S chain = last;
        for (int i = present.size() - 1; i >= 0; i--) {
            chain = present.get(i).apply(chain);
        }
        return chain;
    }
}
