package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.consume.CommittedOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.vertx.core.Context;

/**
 * The deliveries of one call of a batch handler, from {@link BatchCollector} to their settlements: what the single
 * path keeps on each {@link InboundDelivery} (outputs, outbox group, observation) is kept here for the batch. Filled in
 * on the handler's thread, read on the subscriber's event loop after the result came back there.
 */
public final class DeliveryBatch {

    private final Context context;
    private final List<InboundDelivery> items;
    /** Items settled on their own (undecodable, or in the inbox already), with what they came to, in arrival order. */
    private final List<InboundDelivery> alone = new ArrayList<>(0);
    private final List<Object> aloneResults = new ArrayList<>(0);
    /**
     * The items in the handler's list, in its order: a {@code BatchOutcome}'s indexes are into this. null until the
     * handler is called.
     */
    private List<InboundDelivery> handled;
    private HandlerOutputs outputs;
    private CommittedOutputs committedOutputs;
    private Observation observation = Observation.NONE;

    /** @param context a duplicated context of the subscriber's event loop, the batch's own */
    public DeliveryBatch(Context context, List<InboundDelivery> items) {
        this.context = context;
        this.items = items;
    }

    Context context() {
        return context;
    }

    /** Every delivery of the batch, in arrival order. */
    List<InboundDelivery> items() {
        return items;
    }

    /** The deliveries not settled alone so far, in arrival order. */
    public List<InboundDelivery> pending() {
        if (alone.isEmpty()) {
            return items;
        }
        List<InboundDelivery> pending = new ArrayList<>(items.size());
        for (InboundDelivery item : items) {
            if (!alone.contains(item)) {
                pending.add(item);
            }
        }
        return pending;
    }

    /** An item that never reaches the handler, and what it came to (an undecodable {@link Verdict}, ...). */
    public void alone(InboundDelivery item, Object result) {
        alone.add(item);
        aloneResults.add(result);
    }

    List<InboundDelivery> aloneItems() {
        return alone;
    }

    List<Object> aloneResults() {
        return aloneResults;
    }

    /**
     * The items in the handler's list; where the handler was never called (the kill switch, a refused pool, the inbox's
     * failure before it), every item not settled alone: the batch's result is theirs.
     */
    public List<InboundDelivery> handled() {
        if (handled == null) {
            handled = pending();
        }
        return handled;
    }

    public void handled(List<InboundDelivery> handled) {
        this.handled = handled;
    }

    /** Closes the handler's outputs and returns what it sent (none when it takes no {@code Outputs}). */
    public List<Output> takeOutputs() {
        HandlerOutputs held = outputs;
        return held == null ? List.of() : held.take();
    }

    void outputs(HandlerOutputs outputs) {
        this.outputs = outputs;
    }

    /** The outputs a transaction committed with the handler's effects, to publish before the acks; null when none. */
    public CommittedOutputs committedOutputs() {
        return committedOutputs;
    }

    public void committedOutputs(CommittedOutputs committed) {
        this.committedOutputs = committed;
    }

    Observation observation() {
        return observation;
    }

    void observation(Observation observation) {
        this.observation = observation;
    }

    /** For messages: {@code a batch of 12 messages of queue 'readings'}. */
    String describe() {
        return "a batch of " + items.size() + " message" + (items.size() == 1 ? "" : "s");
    }
}
