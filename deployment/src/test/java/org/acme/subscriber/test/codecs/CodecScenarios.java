package org.acme.subscriber.test.codecs;

import static org.acme.subscriber.test.codecs.CodecHandlers.NOTES;
import static org.acme.subscriber.test.codecs.CodecHandlers.NOTES_DEAD;
import static org.acme.subscriber.test.codecs.CodecHandlers.ORDERS;
import static org.acme.subscriber.test.codecs.CodecHandlers.ORDERS_DEAD;
import static org.acme.subscriber.test.codecs.CodecHandlers.ROWS;
import static org.acme.subscriber.test.codecs.CodecHandlers.ROWS_DEAD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.acme.subscriber.test.codecs.proto.Order;
import org.acme.subscriber.test.codecs.proto.Payment;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.PayloadCodec;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.vertx.core.json.JsonObject;

/**
 * Payload codecs, written once and run on each broker: a Protobuf message makes the round trip through
 * {@code RabbitPublisher} and a handler; an application's codec reads and writes its own content type while JSON
 * still reads the others, for a batch's items and a request's reply too; gzip both ways, and a gzip bomb refused; and each bad
 * input (a Protobuf body of another
 * type, a content type no codec claims, a codec that throws) is one undecodable message, dead-lettered at once with
 * a reason that names it, never retried, never lost.
 */
abstract class CodecScenarios extends BrokerScenarios {

    static final Class<?>[] APPLICATION = { CodecHandlers.class, Row.class, Note.class, RowCodec.class };
    /** The bound a compressed body may inflate to in these tests (quarkus.rabbitmq-subscriber.max-message-size). */
    static final String MAX_MESSAGE_SIZE = "1M";

    @Inject
    RabbitPublisher publisher;

    @Inject
    CodecHandlers handlers;

    @Inject
    DeadLetters deadLetters;

    @Test
    void aProtobufMessageMakesTheRoundTripWithItsContentTypeAndTypeName() {
        Order order = Order.newBuilder().setId("o-1").setCents(4250).addItems("tea").addItems("cake").build();
        publisher.sendConfirmedAndAwait(ORDERS, order);
        until(() -> handlers.orders.containsKey("o-1"));
        assertEquals(order, handlers.orders.get("o-1"));
        assertEquals(PayloadCodec.PROTOBUF_CONTENT_TYPE, handlers.properties.get("o-1").contentType());
        assertEquals("acme.orders.Order", handlers.headers.get("o-1").get(PayloadCodec.PROTOBUF_TYPE_HEADER));
    }

    @Test
    void aProtobufBodyOfAnotherTypeIsDeadLetteredAtOnceNamingBothTypes() throws Exception {
        publisher.sendConfirmedAndAwait(ORDERS, Payment.newBuilder().setOrderId("o-2").setCents(10).build());
        Fetched dead = deadLetter(ORDERS_DEAD);
        String reason = exceptionMessage(dead);
        assertTrue(reason.contains("'acme.orders.Payment'") && reason.contains("'acme.orders.Order'"), reason);
        assertEquals(UndecodablePayloadException.class.getName(), header(dead, Delivery.EXCEPTION_TYPE_HEADER)
                .toString());
        assertFalse(handlers.orders.containsKey(""), "never handled (a Payment read as an Order would have no id)");
    }

    @Test
    void aProtobufDeadLetterIsPeekedInProtobufsTextFormat() throws Exception {
        publisher.sendConfirmedAndAwait(ORDERS, Order.newBuilder().setId("o-poison").setCents(7).addItems("tea").build());
        until(() -> depth(ORDERS_DEAD) == 1);
        DeadLetter peeked = deadLetters.peek(ORDERS_DEAD, 5).get(0);
        // Read through the subscription's codec: the message's text, not its binary form.
        assertTrue(peeked.bodyPreview().contains("id: \"o-poison\"") && peeked.bodyPreview().contains("cents: 7"),
                peeked.bodyPreview());
        assertEquals(ORDERS, peeked.sourceQueue());
        drain(ORDERS_DEAD);
    }

    @Test
    void anApplicationCodecWritesAndReadsItsOwnContentTypeWhileJsonReadsTheOthers() {
        publisher.sendConfirmedAndAwait(ROWS, new Row(7, "binary-row"));
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(ROWS)
                .payload(new JsonObject().put("id", 8).put("name", "json-row")));
        until(() -> handlers.rows.containsKey("binary-row") && handlers.rows.containsKey("json-row"));
        assertEquals(new Row(7, "binary-row"), handlers.rows.get("binary-row"));
        assertEquals(RowCodec.CONTENT_TYPE, handlers.properties.get("binary-row").contentType(),
                "the application's codec wrote it");
        assertEquals(new Row(8, "json-row"), handlers.rows.get("json-row"));
        assertEquals("application/json", handlers.properties.get("json-row").contentType());
    }

    @Test
    void aBatchReadsEachItemThroughTheCodecItsContentTypeNames() {
        for (int i = 1; i <= 3; i++) {
            publisher.sendConfirmedAndAwait(CodecHandlers.ROW_BATCHES, new Row(i, "batched-" + i));
        }
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(CodecHandlers.ROW_BATCHES)
                .payload(new JsonObject().put("id", 4).put("name", "batched-json")));
        until(() -> handlers.batches.stream().mapToInt(List::size).sum() == 4);
        List<Row> rows = handlers.batches.stream().flatMap(List::stream).toList();
        assertEquals(List.of(new Row(1, "batched-1"), new Row(2, "batched-2"), new Row(3, "batched-3"),
                new Row(4, "batched-json")), rows);
    }

    @Test
    void aReplyIsWrittenAndReadByTheApplicationsCodec() {
        Row row = publisher.request(CodecHandlers.ROW_REQUESTS, "tea", Row.class, java.time.Duration.ofSeconds(10))
                .await().atMost(java.time.Duration.ofSeconds(15));
        assertEquals(new Row(3, "tea"), row);
    }

    @Test
    void aCodecThatThrowsMakesTheBodyUndecodableNeverRetried() throws Exception {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(ROWS).payload(new byte[] { 'X', 1, 2 })
                .contentType(RowCodec.CONTENT_TYPE).messageId("bad-row"));
        Fetched dead = deadLetter(ROWS_DEAD);
        assertEquals("bad-row", dead.properties().getMessageId());
        String reason = exceptionMessage(dead);
        assertTrue(reason.contains(RowCodec.class.getName()) && reason.contains("IllegalArgumentException"), reason);
        assertFalse(reason.contains("ROW1"), "the codec's own message may quote the body: left out");
        assertEquals(1, ((Number) header(dead, Delivery.RETRY_COUNT_HEADER)).intValue(), "never retried");
    }

    @Test
    void aContentTypeNoCodecClaimsIsDeadLetteredNamingIt() throws Exception {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(NOTES).payload("n-csv,some text")
                .contentType("text/csv; charset=utf-8").messageId("csv-note"));
        Fetched dead = deadLetter(NOTES_DEAD);
        assertEquals("csv-note", dead.properties().getMessageId());
        String reason = exceptionMessage(dead);
        assertTrue(reason.contains("'text/csv'") && reason.contains(Note.class.getName()), reason);
    }

    @Test
    void gzipIsDoneOnSendingAndUndoneOnReading() {
        Note note = new Note("n-gzip", "tea ".repeat(5_000));
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(NOTES).payload(note).contentEncoding("gzip"));
        until(() -> handlers.notes.containsKey("n-gzip"));
        assertEquals(note, handlers.notes.get("n-gzip"));
        assertEquals("gzip", handlers.properties.get("n-gzip").contentEncoding());
        assertEquals("application/json", handlers.properties.get("n-gzip").contentType());
    }

    @Test
    void aCompressedBodyThatInflatesPastTheBoundIsDeadLetteredNamingTheBound() throws Exception {
        // Two MiB of text, a few KiB compressed: past the 1 MiB bound once inflated.
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(NOTES).payload(new Note("n-bomb", "a".repeat(2 << 20)))
                .contentEncoding("gzip").messageId("bomb"));
        until(() -> depth(NOTES_DEAD) == 1);
        DeadLetter peeked = deadLetters.peek(NOTES_DEAD, 5).get(0);
        assertTrue(peeked.bodyPreview().startsWith("{\"id\":\"n-bomb\",\"text\":\"aaa"), "inflated for the preview: "
                + peeked.bodyPreview().substring(0, 20));
        Fetched dead = deadLetter(NOTES_DEAD);
        assertEquals("bomb", dead.properties().getMessageId());
        assertTrue(dead.body().length < 64 * 1024, "compressed on the wire: " + dead.body().length + " bytes");
        String reason = exceptionMessage(dead);
        assertTrue(reason.contains("inflates beyond 1048576 bytes")
                && reason.contains("quarkus.rabbitmq-subscriber.max-message-size"), reason);
        assertFalse(handlers.notes.containsKey("n-bomb"));
    }

    /** The one dead letter the queue receives (drained: each scenario sees only its own). */
    private Fetched deadLetter(String queue) throws Exception {
        until(() -> depth(queue) == 1);
        List<Fetched> dead = drain(queue);
        assertEquals(1, dead.size(), "one dead letter");
        return dead.get(0);
    }

    private static String exceptionMessage(Fetched dead) {
        Object reason = header(dead, Delivery.EXCEPTION_MESSAGE_HEADER);
        return reason == null ? "(no " + Delivery.EXCEPTION_MESSAGE_HEADER + ")" : reason.toString();
    }
}
