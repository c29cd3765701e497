package io.quarkiverse.rabbitmq.subscriber.runtime.batch;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.BatchOutcome;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.HandlerInvocation;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.Handling;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * One call of a batch handler, on whatever thread runs it: each pending delivery's body decoded (one that cannot be
 * is settled alone, as an undecodable {@link Verdict}, and left out of the list), the method called with the
 * list of payloads, the list of those deliveries ({@code List<Delivery>}, same order) and the batch's {@code Outputs},
 * through {@link HandlerInvocation#invoke} (its invoker, bean instance and request context). A batch left empty calls
 * nothing. Never throws.
 */
public final class BatchInvocation implements Handling<DeliveryBatch> {

    private final SubscriberDefinition definition;
    private final PayloadDecoder decoder;
    private final HandlerInvocation invocation;

    public BatchInvocation(SubscriberDefinition definition, PayloadDecoder decoder, HandlerInvocation invocation) {
        this.definition = definition;
        this.decoder = decoder;
        this.invocation = invocation;
    }

    @Override
    public Object run(DeliveryBatch batch) {
        List<InboundDelivery> pending = batch.pending();
        List<InboundDelivery> handled = new ArrayList<>(pending.size());
        List<Object> payloads = new ArrayList<>(pending.size());
        for (InboundDelivery item : pending) {
            try {
                payloads.add(decoder.decode(item.body(), item.wireProperties()));
                handled.add(item);
            } catch (UndecodablePayloadException e) {
                batch.alone(item, Verdict.undecodable(e));
            } catch (Throwable t) {
                batch.alone(item, Verdict.thrown(t));
            }
        }
        batch.handled(handled);
        if (handled.isEmpty()) {
            return BatchOutcome.ack();
        }
        try {
            return invocation.invoke(arguments(batch, Collections.unmodifiableList(payloads), handled));
        } catch (Throwable t) {
            return Verdict.thrown(t);
        }
    }

    private Object[] arguments(DeliveryBatch batch, List<Object> payloads, List<InboundDelivery> handled) {
        Object[] arguments = new Object[definition.parameterCount];
        arguments[definition.payloadIndex] = payloads;
        if (definition.deliveryIndex >= 0) {
            arguments[definition.deliveryIndex] = Collections.unmodifiableList(handled);
        }
        if (definition.outputsIndex >= 0) {
            // A batch answers no single request: Outputs.reply says so.
            var outputs = invocation.outputs(null, null,
                    batch.describe() + " (a batch handler answers no single request)");
            batch.outputs(outputs);
            arguments[definition.outputsIndex] = outputs;
        }
        return arguments;
    }
}
