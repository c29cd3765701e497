package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import jakarta.enterprise.invoke.Invoker;

import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadDecoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;

/**
 * One call of a subscriber method for one delivery, on whatever thread runs it (its observation begun by
 * {@link Observing}): the payload is decoded, the method is invoked through its ArC invoker within a request context
 * ({@link RequestScope}). Whatever happens comes back as a
 * value: the method's own result (an {@code Outcome}, a {@code CompletionStage}, null), {@link Failed} for a throw, or
 * {@link Undecodable} when the method never ran. It never throws: a handler's exception must reach settlement, not the
 * thread's uncaught handler.
 */
final class HandlerInvocation implements Handling<InboundDelivery> {

    /** A thrown exception, carried to settlement as a value. */
    record Failed(Throwable cause) {
    }

    /** A body that could not be decoded: the handler never ran. */
    record Undecodable(UndecodablePayloadException cause) {
    }

    private final SubscriberDefinition definition;
    private final Invoker<Object, Object> invoker;
    /** The handler's bean instance, looked up once; null where the invoker looks one up per call ({@code @Dependent}). */
    private final Object instance;
    private final PayloadDecoder decoder;
    private final RequestScope requestScope;
    /** Encodes what the handler sends through its {@code Outputs}; null when it takes none. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder encoder;
    /** Where its {@code Outputs.reply} may send. */
    private final io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets replies;

    HandlerInvocation(SubscriberDefinition definition, PayloadDecoder decoder, RequestScope requestScope) {
        this(definition, decoder, null, requestScope);
    }

    HandlerInvocation(SubscriberDefinition definition, PayloadDecoder decoder,
            io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder encoder, RequestScope requestScope) {
        this(definition, decoder, encoder, io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets.ANY,
                requestScope);
    }

    HandlerInvocation(SubscriberDefinition definition, PayloadDecoder decoder,
            io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder encoder,
            io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets replies, RequestScope requestScope) {
        this.replies = replies;
        this.encoder = encoder;
        this.requestScope = requestScope;
        this.definition = definition;
        this.invoker = definition.invoker.getValue();
        this.instance = definition.beanIdentifier == null ? null
                : io.quarkus.arc.Arc.container().instance(io.quarkus.arc.Arc.container().bean(definition.beanIdentifier))
                        .get();
        this.decoder = decoder;
    }

    /** The type the payload is decoded as, for messages. */
    String expectedType() {
        return decoder.expectedType();
    }

    @Override
    public Object run(InboundDelivery delivery) {
        Object payload;
        try {
            payload = decoder.decode(delivery.body());
        } catch (UndecodablePayloadException e) {
            return new Undecodable(e);
        } catch (Throwable t) {
            return new Failed(t);
        }
        try {
            return invoke(arguments(payload, delivery));
        } catch (Throwable t) {
            // Activating the request context or building the arguments failed: still a result to settle.
            return new Failed(t);
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
    io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs outputs(String replyTo, String correlationId,
            String what) {
        return new io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs(encoder, replyTo, correlationId, what,
                replies);
    }

    /** The method called with these arguments, within a request context: its result, or {@link Failed}. */
    Object invoke(Object[] arguments) {
        try {
            return requestScope.invoke(invoker, instance, arguments);
        } catch (Throwable t) {
            return new Failed(t);
        }
    }
}
