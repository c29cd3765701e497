package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.Output;
import io.vertx.core.Context;

/**
 * The deliveries of one call of a batch handler, from {@link BatchCollector} to their settlements: what the single
 * path keeps on each {@link InboundDelivery} (outputs, outbox group, observation) is kept here for the batch. Filled in
 * on the handler's thread, read on the subscriber's event loop after the result came back there.
 */
final class DeliveryBatch {

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
    private HeldOutputs outputs;
    private OutboxGroup outboxGroup;
    private Observation observation = Observation.NONE;

    /** @param context a duplicated context of the subscriber's event loop, the batch's own */
    DeliveryBatch(Context context, List<InboundDelivery> items) {
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
    List<InboundDelivery> pending() {
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

    /** An item that never reaches the handler, and what it came to ({@link HandlerInvocation.Undecodable}, ...). */
    void alone(InboundDelivery item, Object result) {
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
    List<InboundDelivery> handled() {
        if (handled == null) {
            handled = pending();
        }
        return handled;
    }

    void handled(List<InboundDelivery> handled) {
        this.handled = handled;
    }

    /** Closes the handler's outputs and returns what it sent (none when it takes no {@code Outputs}). */
    List<Output> takeOutputs() {
        HeldOutputs held = outputs;
        return held == null ? List.of() : held.take();
    }

    void outputs(HeldOutputs outputs) {
        this.outputs = outputs;
    }

    /** The outputs its inbox transaction committed to the outbox, to publish before the acks; null when none. */
    OutboxGroup outboxGroup() {
        return outboxGroup;
    }

    void outboxGroup(OutboxGroup group) {
        this.outboxGroup = group;
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
