package org.acme.subscriber.test.observe;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.maven.dependency.Dependency;
import io.quarkus.test.QuarkusUnitTest;

/**
 * With quarkus-opentelemetry in the application and an in-memory exporter: a message published with
 * {@code RabbitPublisher} and consumed yields a PRODUCER span and a CONSUMER span of one trace, with the messaging
 * attributes, the process span current in the handler; a message retried to its cap keeps every copy, their
 * publishes and its dead letter in the trace it started in.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class TracingTest {

    static final String QUEUE = "t.obs.tracing";
    static final String DEAD = QUEUE + ".dead";
    /** A handler that sends an output to {@link #SINK}, read by another handler. */
    static final String SHIPPING = "t.obs.tracing.shipping";
    static final String SINK = "t.obs.tracing.shipments";
    /** A batch handler's queue: one span per batch, linked to each item's publish. */
    static final String BATCH = "t.obs.tracing.batch";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, DEAD, SHIPPING, SINK, BATCH).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, Exporter.class))
            .setForcedDependencies(List.of(Dependency.of("io.quarkus", "quarkus-opentelemetry-deployment",
                    io.quarkus.builder.Version.getVersion())))
            .overrideConfigKey("quarkus.otel.bsp.schedule.delay", "50")
            .overrideConfigKey("quarkus.otel.bsp.export.timeout", "1s")
            .overrideConfigKey("quarkus.otel.metrics.exporter", "none")
            .overrideConfigKey("quarkus.otel.logs.exporter", "none");

    @Inject
    InMemorySpanExporter spans;

    @Inject
    RabbitPublisher publisher;

    @Test
    void aMessageAndItsCopiesAndDeadLetterStayInOneTrace() {
        spans.reset();
        publisher.sendConfirmed(QUEUE, "ok").await().atMost(Duration.ofSeconds(10));
        await().until(() -> processSpans("ok").size() == 1);
        SpanData publish = only(SpanKind.PRODUCER, "publish " + QUEUE, spans.getFinishedSpanItems());
        SpanData process = processSpans("ok").get(0);
        assertEquals(publish.getTraceId(), process.getTraceId(), "one trace");
        assertEquals(publish.getSpanId(), process.getParentSpanId(), "the process span is the publish span's child");
        assertEquals("process " + QUEUE, process.getName());
        assertEquals("rabbitmq", process.getAttributes().get(AttributeKey.stringKey("messaging.system")));
        assertEquals(QUEUE, process.getAttributes().get(AttributeKey.stringKey("messaging.destination.name")));
        assertEquals("process", process.getAttributes().get(AttributeKey.stringKey("messaging.operation.name")));
        assertEquals("ack", process.getAttributes().get(AttributeKey.stringKey("messaging.rabbitmq.subscriber.outcome")));
        assertNotNull(process.getAttributes().get(AttributeKey.stringKey("messaging.message.id")));
        assertEquals(process.getSpanId(), Handler.currentSpans.get("ok"), "the process span is current in the handler");

        spans.reset();
        publisher.sendConfirmed(QUEUE, "poison").await().atMost(Duration.ofSeconds(10));
        await().until(() -> processSpans("poison").size() == 3 && RabbitAdmin.withResult(admin -> admin.depth(DEAD)) == 1);
        await().until(() -> spans.getFinishedSpanItems().stream().filter(s -> s.getKind() == SpanKind.PRODUCER).count() == 4);
        List<SpanData> all = spans.getFinishedSpanItems();
        Set<String> traces = all.stream().map(SpanData::getTraceId).collect(Collectors.toSet());
        assertEquals(1, traces.size(), "publish, three deliveries, two copies and the dead letter in one trace: " + all);
        // Each delivery after the first is the child of the publish of its copy, itself the child of the delivery
        // before: a chain, not a fan.
        List<SpanData> processes = processSpans("poison");
        for (int i = 1; i < processes.size(); i++) {
            SpanData copyPublish = byId(all, processes.get(i).getParentSpanId());
            assertEquals(SpanKind.PRODUCER, copyPublish.getKind());
            assertEquals(processes.get(i - 1).getSpanId(), copyPublish.getParentSpanId());
        }
        assertEquals("dead-letter", processes.get(2).getAttributes()
                .get(AttributeKey.stringKey("messaging.rabbitmq.subscriber.outcome")));
        SpanData deadLetter = only(SpanKind.PRODUCER, "publish " + DEAD, all);
        assertEquals(processes.get(2).getSpanId(), deadLetter.getParentSpanId());
        // The dead letter carries the context on: its traceparent names the dead-letter publish span.
        String traceparent = RabbitAdmin.withResult(admin -> String.valueOf(admin.drain(DEAD).get(0).getProps()
                .getHeaders().get("traceparent")));
        assertTrue(traceparent.contains(deadLetter.getTraceId()) && traceparent.contains(deadLetter.getSpanId()),
                traceparent);
    }

    @Test
    void anOutputIsAProducerSpanOfTheDeliverysTraceAndItsConsumerFollowsIt() {
        spans.reset();
        publisher.sendConfirmed(SHIPPING, "order-1").await().atMost(Duration.ofSeconds(10));
        await().until(() -> processSpans("order-1").size() == 1 && processSpans("shipment of order-1").size() == 1);
        List<SpanData> all = spans.getFinishedSpanItems();
        SpanData handled = processSpans("order-1").get(0);
        SpanData output = only(SpanKind.PRODUCER, "publish " + SINK, all);
        SpanData shipped = processSpans("shipment of order-1").get(0);
        assertEquals(handled.getTraceId(), output.getTraceId(), "one trace");
        assertEquals(handled.getSpanId(), output.getParentSpanId(), "the output's publish is the delivery's child");
        assertEquals(output.getSpanId(), shipped.getParentSpanId(), "its consumer follows the output's publish");
    }

    @Test
    void aBatchIsOneProcessSpanLinkedToEachItemsPublish() {
        spans.reset();
        for (String body : List.of("reading-1", "reading-2", "reading-3")) {
            publisher.sendConfirmed(BATCH, body).await().atMost(Duration.ofSeconds(10));
        }
        await().until(() -> spans.getFinishedSpanItems().stream()
                .anyMatch(span -> span.getName().equals("process " + BATCH)));
        List<SpanData> all = spans.getFinishedSpanItems();
        SpanData process = only(SpanKind.CONSUMER, "process " + BATCH, all);
        assertEquals(3L, process.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count")));
        assertEquals("ack", process.getAttributes().get(AttributeKey.stringKey("messaging.rabbitmq.subscriber.outcome")));
        Set<String> publishes = all.stream().filter(span -> span.getName().equals("publish " + BATCH))
                .map(SpanData::getSpanId).collect(Collectors.toSet());
        assertEquals(3, publishes.size());
        assertEquals(publishes, process.getLinks().stream().map(link -> link.getSpanContext().getSpanId())
                .collect(Collectors.toSet()), "linked to each item's publish");
        assertEquals(process.getSpanId(), Handler.currentSpans.get("batch"), "the batch's span is current in the handler");
    }

    private List<SpanData> processSpans(String body) {
        return spans.getFinishedSpanItems().stream()
                .filter(span -> span.getKind() == SpanKind.CONSUMER && body.equals(Handler.bodies.get(span.getSpanId())))
                .sorted(java.util.Comparator.comparingLong(SpanData::getStartEpochNanos)).toList();
    }

    private static SpanData only(SpanKind kind, String name, List<SpanData> all) {
        List<SpanData> found = all.stream().filter(s -> s.getKind() == kind && s.getName().equals(name)).toList();
        assertEquals(1, found.size(), kind + " " + name + " in " + all);
        return found.get(0);
    }

    private static SpanData byId(List<SpanData> all, String spanId) {
        return all.stream().filter(s -> s.getSpanId().equals(spanId)).findFirst()
                .orElseThrow(() -> new AssertionError("no span " + spanId + " in " + all));
    }

    @ApplicationScoped
    public static class Exporter {
        @Produces
        @Singleton
        InMemorySpanExporter inMemorySpanExporter() {
            return InMemorySpanExporter.create();
        }
    }

    public static class Handler {
        /** The body each process span handled, by span id; and the span current in the handler, by body. */
        static final Map<String, String> bodies = new java.util.concurrent.ConcurrentHashMap<>();
        static final Map<String, String> currentSpans = new java.util.concurrent.ConcurrentHashMap<>();

        @Subscriber(value = QUEUE, maxAttempts = 3, deadLetter = DEAD)
        Outcome handle(String body) {
            String spanId = Span.current().getSpanContext().getSpanId();
            bodies.put(spanId, body);
            currentSpans.put(body, spanId);
            return body.equals("poison") ? Outcome.retry() : Outcome.ack();
        }

        @Subscriber(SHIPPING)
        Outcome ship(String order, io.quarkiverse.rabbitmq.subscriber.Outputs outputs) {
            bodies.put(Span.current().getSpanContext().getSpanId(), order);
            outputs.send(SINK, "shipment of " + order);
            return Outcome.ack();
        }

        @Subscriber(value = BATCH, batch = @io.quarkiverse.rabbitmq.subscriber.Batch(size = 3, maxWait = "30s"))
        void readings(List<String> readings) {
            currentSpans.put("batch", Span.current().getSpanContext().getSpanId());
        }

        @Subscriber(SINK)
        void shipment(String shipment) {
            bodies.put(Span.current().getSpanContext().getSpanId(), shipment);
        }
    }
}
