package io.quarkiverse.rabbitmq.subscriber.runtime.observe.tracing;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.rabbitmq.client.AMQP;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observation;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observer;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation;

/**
 * Traces messages with OpenTelemetry's messaging conventions: a PRODUCER span per publish, whose context goes into the
 * message's headers ({@code traceparent}, {@code tracestate}, through the application's propagators), and a CONSUMER
 * span per delivery, child of the producer's context, current while the handler runs so the handler's own calls join
 * the trace. A copy or dead letter the runtime publishes for a delivery carries that delivery's span as its parent. A
 * bean only where the application has OpenTelemetry and {@code quarkus.rabbitmq-subscriber.tracing.enabled} is on.
 */
@Singleton
public class OpenTelemetryObserver implements Observer {

    static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("messaging.operation.name");
    static final AttributeKey<String> OPERATION_TYPE = AttributeKey.stringKey("messaging.operation.type");
    static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    static final AttributeKey<String> MESSAGE_ID = AttributeKey.stringKey("messaging.message.id");
    static final AttributeKey<Long> BODY_SIZE = AttributeKey.longKey("messaging.message.body.size");
    static final AttributeKey<String> ROUTING_KEY = AttributeKey.stringKey("messaging.rabbitmq.destination.routing_key");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("messaging.rabbitmq.subscriber.outcome");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<Long> BATCH_COUNT = AttributeKey.longKey("messaging.batch.message_count");

    private static final TextMapGetter<Map<String, Object>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, Object> headers) {
            return headers.keySet();
        }

        @Override
        public String get(Map<String, Object> headers, String key) {
            Object value = headers == null ? null : headers.get(key);
            // amqp-client reads header strings as LongString.
            return value == null ? null : value.toString();
        }
    };

    private static final TextMapSetter<Map<String, Object>> SETTER = (headers, key, value) -> headers.put(key, value);

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    @Inject
    public OpenTelemetryObserver(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer("io.quarkiverse.rabbitmq-subscriber");
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    }

    @Override
    public Observation processing(String queue, AMQP.BasicProperties properties, int bodySize) {
        Map<String, Object> headers = properties.getHeaders();
        Context parent = headers == null ? Context.root() : propagator.extract(Context.root(), headers, GETTER);
        var builder = tracer.spanBuilder("process " + queue).setSpanKind(SpanKind.CONSUMER).setParent(parent)
                .setAttribute(SYSTEM, "rabbitmq").setAttribute(OPERATION_NAME, "process")
                .setAttribute(OPERATION_TYPE, "process").setAttribute(DESTINATION, queue)
                .setAttribute(BODY_SIZE, (long) bodySize);
        if (properties.getMessageId() != null) {
            builder.setAttribute(MESSAGE_ID, properties.getMessageId());
        }
        return new SpanObservation(builder.startSpan(), parent);
    }

    /**
     * One CONSUMER span for the batch ({@code process <queue>}, with {@code messaging.batch.message_count}), a root
     * span linked to each item's producer context, as the messaging conventions have it for a batch; current while
     * the handler runs, ended with the batch's result.
     */
    @Override
    public Observation processingBatch(String queue, List<AMQP.BasicProperties> items) {
        var builder = tracer.spanBuilder("process " + queue).setSpanKind(SpanKind.CONSUMER).setNoParent()
                .setAttribute(SYSTEM, "rabbitmq").setAttribute(OPERATION_NAME, "process")
                .setAttribute(OPERATION_TYPE, "process").setAttribute(DESTINATION, queue)
                .setAttribute(BATCH_COUNT, (long) items.size());
        for (AMQP.BasicProperties properties : items) {
            Map<String, Object> headers = properties.getHeaders();
            if (headers != null) {
                SpanContext linked = Span.fromContext(propagator.extract(Context.root(), headers, GETTER))
                        .getSpanContext();
                if (linked.isValid()) {
                    builder.addLink(linked);
                }
            }
        }
        return new SpanObservation(builder.startSpan(), Context.root());
    }

    /** No span of its own: the batch's is the item's; a copy or dead letter of it carries the batch's context. */
    @Override
    public Observation batchItem(String queue, AMQP.BasicProperties properties, int bodySize, Observation batch) {
        return new Observation() {
            @Override
            public void propagate(Map<String, Object> copyHeaders) {
                batch.propagate(copyHeaders);
            }
        };
    }

    /**
     * A delivery's (or a batch's) span: current on the handler's thread until it returns, ended with what became of
     * the delivery; its context is what the delivery's copies and dead letters carry.
     */
    private final class SpanObservation implements Observation {

        private final Span span;
        private final Context context;
        private final Scope scope;

        SpanObservation(Span span, Context parent) {
            this.span = span;
            this.context = parent.with(span);
            this.scope = context.makeCurrent();
        }

        @Override
        public void handlerReturned() {
            scope.close();
        }

        @Override
        public void settled(String outcome, String errorType) {
            span.setAttribute(OUTCOME, outcome);
            if (errorType != null) {
                span.setAttribute(ERROR_TYPE, errorType);
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }

        @Override
        public void propagate(Map<String, Object> copyHeaders) {
            propagator.inject(context, copyHeaders, SETTER);
        }
    }

    @Override
    public PublishObservation publishing(String exchange, String routingKey, Map<String, Object> headers) {
        String destination = exchange.isEmpty() ? routingKey : exchange;
        // The parent: the current context (a handler's process span, an HTTP request's span), or else the context the
        // message carries already (a copy or held copy the runtime publishes for a delivery, off the handler).
        Context parent = Context.current();
        if (!Span.fromContext(parent).getSpanContext().isValid() && headers != null) {
            parent = propagator.extract(parent, headers, GETTER);
        }
        Span span = tracer.spanBuilder("publish " + destination).setSpanKind(SpanKind.PRODUCER).setParent(parent)
                .setAttribute(SYSTEM, "rabbitmq").setAttribute(OPERATION_NAME, "publish")
                .setAttribute(OPERATION_TYPE, "send").setAttribute(DESTINATION, destination)
                .setAttribute(ROUTING_KEY, routingKey).startSpan();
        if (headers != null) {
            try {
                propagator.inject(parent.with(span), headers, SETTER);
            } catch (UnsupportedOperationException e) {
                // A header table that cannot change: the message keeps the context it has.
            }
        }
        return failure -> {
            if (failure != null) {
                span.setAttribute(ERROR_TYPE, failure.getClass().getName());
                span.setStatus(StatusCode.ERROR, String.valueOf(failure.getMessage()));
            }
            span.end();
        };
    }

    @Override
    public void settled(String queue, String operation, long nanos) {
        // Settlements are recorded on the process span (its outcome), not as spans of their own.
    }
}
