package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** What Delivery reports, the configurable retry-count header, and the raw payload types. */
@Tag("wire")
class DeliveryMetadataTest {

    static final String QUEUE = "t.metadata";
    static final String JSON = "t.metadata.json";
    static final String BUFFER = "t.metadata.buffer";
    static final String ARRAY = "t.metadata.array";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUE, JSON, BUFFER, ARRAY).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.retry-count-header", "x-attempts");

    @Inject
    Handlers handlers;

    @Inject
    RabbitPublisher publisher;

    @Test
    void deliveryDescribesTheMessage() {
        publisher.sendConfirmedAndAwait(
                io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.toQueue(QUEUE).payload("counted").messageId("m-1")
                        .headers(Map.of("x-attempts", 4, "tenant", "acme")));
        publisher.sendConfirmedAndAwait(QUEUE, "fresh");
        await().until(() -> handlers.deliveries.size() == 2);
        Delivery counted = handlers.deliveries.get("counted");
        assertEquals(QUEUE, counted.queue());
        assertEquals("", counted.exchange());
        assertEquals(QUEUE, counted.routingKey());
        assertFalse(counted.redelivered());
        assertEquals("m-1", counted.messageId());
        assertEquals(4, counted.attempt());
        assertEquals("acme", counted.header("tenant").toString());
        assertTrue(counted.headers().containsKey("x-attempts"));
        assertTrue(counted.redeliveryCount().isEmpty(), "a classic queue counts no deliveries");
        assertEquals(1, handlers.deliveries.get("fresh").attempt(), "no header: the first delivery");
    }

    @Test
    void rawPayloadTypes() {
        publisher.sendConfirmedAndAwait(JSON, new JsonObject().put("id", 9));
        publisher.sendConfirmedAndAwait(BUFFER, Buffer.buffer("bytes"));
        // A JsonArray goes as it is, with the content encoding the message names (the body is not transformed).
        publisher.sendConfirmedAndAwait(io.quarkiverse.rabbitmq.subscriber.OutgoingMessage.toQueue(ARRAY)
                .payload(new JsonArray().add("a").add(2)).contentEncoding("identity"));
        await().until(() -> handlers.raw.size() == 3);
        assertEquals(9, ((JsonObject) handlers.raw.get(JSON)).getInteger("id"));
        assertEquals("bytes", handlers.raw.get(BUFFER).toString());
        assertEquals(new JsonArray().add("a").add(2), handlers.raw.get(ARRAY));
        assertEquals("identity", handlers.arrayEncoding);
        assertEquals("application/json", handlers.arrayType);
    }

    public static class Handlers {
        final Map<String, Delivery> deliveries = new ConcurrentHashMap<>();
        final Map<String, Object> raw = new ConcurrentHashMap<>();

        @Subscriber(QUEUE)
        void handle(String body, Delivery delivery) {
            deliveries.put(body, delivery);
        }

        @Subscriber(JSON)
        void json(JsonObject body) {
            raw.put(JSON, body);
        }

        @Subscriber(BUFFER)
        void buffer(Buffer body) {
            raw.put(BUFFER, body);
        }

        volatile String arrayEncoding;
        volatile String arrayType;

        @Subscriber(ARRAY)
        void array(JsonArray body, Delivery delivery) {
            arrayEncoding = delivery.properties().contentEncoding();
            arrayType = delivery.properties().contentType();
            raw.put(ARRAY, body);
        }
    }
}
