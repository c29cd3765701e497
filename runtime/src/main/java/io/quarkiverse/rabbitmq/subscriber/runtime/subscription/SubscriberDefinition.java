package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import jakarta.enterprise.invoke.Invoker;

import io.quarkus.runtime.RuntimeValue;
import io.quarkus.runtime.annotations.RecordableConstructor;

/**
 * Everything the runtime needs to know about one {@code @Subscriber} method, computed and validated at build time.
 */
public final class SubscriberDefinition {

    /** How the handler's payload parameter is produced from the message body. */
    public enum PayloadKind {
        BYTES,
        STRING,
        BUFFER,
        JSON_OBJECT,
        JSON_ARRAY,
        /** Decoded from JSON by Jackson into {@link #payloadType}. */
        JSON
    }

    /** What the handler returns, after the invoker turned a {@code Uni} into a {@code CompletionStage}. */
    public enum ReturnKind {
        OUTCOME,
        VOID,
        ASYNC_OUTCOME,
        ASYNC_VOID
    }

    /** Where the handler runs. */
    public enum ExecutionModel {
        EVENT_LOOP,
        WORKER,
        VIRTUAL_THREAD
    }

    /** The queue, its cap and dead letter, how copies are published, prefetch and concurrency. */
    public final SubscriptionSpec subscription;
    /** {@code org.acme.Refunds#process(org.acme.Refund)}, for messages. */
    public final String method;
    public final PayloadKind payloadKind;
    /** The payload's generic type, canonical form ({@code java.util.List<org.acme.Refund>}). */
    public final String payloadType;
    public final int parameterCount;
    public final int payloadIndex;
    /** -1 when the handler takes no {@code Delivery}. */
    public final int deliveryIndex;
    /** -1 when the handler takes no {@code Outputs}. */
    public final int outputsIndex;
    public final ReturnKind returnKind;
    public final ExecutionModel executionModel;
    public final RuntimeValue<Invoker<Object, Object>> invoker;
    /**
     * ArC's identifier of the handler's bean, whose instance the runtime looks up once and passes to the invoker; null
     * for a {@code @Dependent} bean, whose invoker looks up (and after the call destroys) an instance per delivery.
     */
    public final String beanIdentifier;
    /** {@code @Batch(size)}: the most deliveries in one call of a batch handler; 0 for a handler of one delivery. */
    public final int batchSize;
    /** {@code @Batch(maxWait)} in milliseconds: how long a batch waits for more after its first delivery. */
    public final long batchMaxWaitMillis;

    /** A subscriber whose invoker looks up the bean's instance itself (unit tests' fake invokers). */
    public SubscriberDefinition(SubscriptionSpec subscription, String method, PayloadKind payloadKind, String payloadType,
            int parameterCount, int payloadIndex, int deliveryIndex, int outputsIndex,
            ReturnKind returnKind, ExecutionModel executionModel, RuntimeValue<Invoker<Object, Object>> invoker) {
        this(subscription, method, payloadKind, payloadType, parameterCount, payloadIndex, deliveryIndex, outputsIndex,
                returnKind, executionModel, invoker, null);
    }

    public SubscriberDefinition(SubscriptionSpec subscription, String method, PayloadKind payloadKind, String payloadType,
            int parameterCount, int payloadIndex, int deliveryIndex, int outputsIndex,
            ReturnKind returnKind, ExecutionModel executionModel, RuntimeValue<Invoker<Object, Object>> invoker,
            String beanIdentifier) {
        this(subscription, method, payloadKind, payloadType, parameterCount, payloadIndex, deliveryIndex, outputsIndex,
                returnKind, executionModel, invoker, beanIdentifier, 0, 0);
    }

    /**
     * A batch handler's payload kind and type are each item's ({@code org.acme.Reading}, not the list), and its return
     * kinds {@code OUTCOME} and {@code ASYNC_OUTCOME} mean a {@code BatchOutcome}.
     */
    @RecordableConstructor
    public SubscriberDefinition(SubscriptionSpec subscription, String method, PayloadKind payloadKind, String payloadType,
            int parameterCount, int payloadIndex, int deliveryIndex, int outputsIndex,
            ReturnKind returnKind, ExecutionModel executionModel, RuntimeValue<Invoker<Object, Object>> invoker,
            String beanIdentifier, int batchSize, long batchMaxWaitMillis) {
        this.batchSize = batchSize;
        this.batchMaxWaitMillis = batchMaxWaitMillis;
        this.subscription = subscription;
        this.method = method;
        this.payloadKind = payloadKind;
        this.payloadType = payloadType;
        this.parameterCount = parameterCount;
        this.payloadIndex = payloadIndex;
        this.deliveryIndex = deliveryIndex;
        this.outputsIndex = outputsIndex;
        this.returnKind = returnKind;
        this.executionModel = executionModel;
        this.invoker = invoker;
        this.beanIdentifier = beanIdentifier;
    }

    /** This subscriber with another subscription: its names resolved, or marked as reading dead letters. */
    public SubscriberDefinition with(SubscriptionSpec subscription) {
        return new SubscriberDefinition(subscription, method, payloadKind, payloadType, parameterCount, payloadIndex,
                deliveryIndex, outputsIndex, returnKind, executionModel, invoker, beanIdentifier, batchSize,
                batchMaxWaitMillis);
    }

    /**
     * The prefetch it consumes with: the subscription's own, else {@code configured}; a batch handler's at least its
     * batch size (a smaller one could never fill a batch). 0: unlimited.
     */
    public int prefetch(int configured) {
        int prefetch = subscription.prefetch > 0 ? subscription.prefetch : configured;
        return prefetch > 0 && batches() ? Math.max(prefetch, batchSize) : prefetch;
    }

    /** Whether the handler takes a list of deliveries per call ({@code @Batch}). */
    public boolean batches() {
        return batchSize > 0;
    }

    @Override
    public String toString() {
        return method + " on queue '" + subscription.queue + "'";
    }

    /** Whether the handler can return {@code retryAfter}: only a handler that returns an {@code Outcome} can. */
    public boolean canDelay() {
        return returnKind == ReturnKind.OUTCOME || returnKind == ReturnKind.ASYNC_OUTCOME;
    }

    /**
     * Whether delayed copies wait in this service ({@code IN_SERVICE}): {@code retryAfter} copies of a handler that can
     * delay, or the copies of failures under a back-off.
     */
    public boolean holdsCopies() {
        // With the server's delayed retry nothing is copied: the server holds the message.
        // A partition's retries wait in place, the delivery itself held: nothing is copied.
        return (canDelay() || subscription.backoff().waits()) && !subscription.serverDelaysRetries()
                && !subscription.retriesInPlace()
                && subscription.delay == io.quarkiverse.rabbitmq.subscriber.Delay.IN_SERVICE;
    }
}
