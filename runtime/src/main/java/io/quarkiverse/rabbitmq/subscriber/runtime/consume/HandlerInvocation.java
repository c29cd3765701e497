package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * One call of a subscriber method for one delivery, on whatever thread runs it (its observation begun by
 * {@link Observing}): the payload is decoded, the method is invoked through its ArC invoker within a request context
 * ({@link RequestScope}). Whatever happens comes back as a
 * value: the method's own result (an {@code Outcome}, a {@code CompletionStage}, null), a thrown {@link Verdict} for a throw,
 * or
 * an undecodable one when the method never ran. It never throws: a handler's exception must reach settlement, not the
 * thread's uncaught handler.
 */
public final class HandlerInvocation implements Handling<InboundDelivery> {

    private final SubscriberDefinition definition;
    private final Invoker<Object, Object> invoker;
    /** The handler's bean instance, looked up once; null where the invoker looks one up per call ({@code @Dependent}). */
    private final Object instance;
    private final PayloadDecoder decoder;
    private final RequestScope requestScope;
    /** Opens what the handler sends through its {@code Outputs}; null when it takes none. */
    private final HandlerOutputs.Factory outputs;

    public HandlerInvocation(SubscriberDefinition definition, PayloadDecoder decoder, RequestScope requestScope) {
        this(definition, decoder, null, requestScope);
    }

    /** @param outputs opens each call's {@code Outputs} (the outputs feature's); null when the handler takes none */
    public HandlerInvocation(SubscriberDefinition definition, PayloadDecoder decoder, HandlerOutputs.Factory outputs,
            RequestScope requestScope) {
        this.outputs = outputs;
        this.requestScope = requestScope;
        this.definition = definition;
        this.invoker = definition.invoker.getValue();
        this.instance = definition.beanIdentifier == null ? null
                : io.quarkus.arc.Arc.container().instance(io.quarkus.arc.Arc.container().bean(definition.beanIdentifier))
                        .get();
        this.decoder = decoder;
    }

    /** The type the payload is decoded as, for messages. */
    public String expectedType() {
        return decoder.expectedType();
    }

    @Override
    public Object run(InboundDelivery delivery) {
        Object payload;
        try {
            payload = decoder.decode(delivery.body(), delivery.wireProperties());
        } catch (UndecodablePayloadException e) {
            return Verdict.undecodable(e);
        } catch (Throwable t) {
            return Verdict.thrown(t);
        }
        try {
            return invoke(arguments(payload, delivery));
        } catch (Throwable t) {
            // Activating the request context or building the arguments failed: still a result to settle.
            return Verdict.thrown(t);
        }
    }

    private Object[] arguments(Object payload, InboundDelivery delivery) {
        Object[] arguments = new Object[definition.parameterCount];
        arguments[definition.payloadIndex] = payload;
        if (definition.deliveryIndex >= 0) {
            arguments[definition.deliveryIndex] = delivery;
        }
        if (definition.outputsIndex >= 0) {
            var outputs = outputs(delivery.replyTo(), delivery.correlationId(), delivery.describe());
            delivery.outputs(outputs);
            arguments[definition.outputsIndex] = outputs;
        }
        return arguments;
    }

    /** The {@code Outputs} of one call, held until settlement; {@code replyTo} null where there is nobody to answer. */
    public HandlerOutputs outputs(String replyTo, String correlationId, String what) {
        return outputs.open(replyTo, correlationId, what);
    }

    /** The method called with these arguments, within a request context: its result, or a thrown {@link Verdict}. */
    public Object invoke(Object[] arguments) {
        try {
            return requestScope.invoke(invoker, instance, arguments);
        } catch (Throwable t) {
            return Verdict.thrown(t);
        }
    }
}
