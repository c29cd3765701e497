package org.acme.subscriber.test.outputs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.smallrye.mutiny.Uni;

/**
 * Request and reply through direct reply-to, written once and run on each broker (the in-process broker gives direct
 * reply-to as RabbitMQ does): a subscriber answers to its delivery's reply-to with its correlation id, fire and forget,
 * confirmed or through its {@link Outputs}, and {@code RabbitPublisher.request} completes with that answer; a request
 * nobody answers times out naming the queue and the timeout, and one no queue takes fails at once.
 */
abstract class RequestReplyScenarios extends BrokerScenarios {

    static final String QUOTES = "t.reply.quotes";
    static final String CONFIRMED = "t.reply.confirmed";
    /** A queue no subscriber consumes: its requests wait there until they expire. */
    static final String UNANSWERED = "t.reply.unanswered";
    static final String METADATA = "t.reply.metadata";
    /** Answered through the handler's Outputs: the reply leaves with the ack, confirmed. */
    static final String THROUGH_OUTPUTS = "t.reply.outputs";
    /** No queue of this name exists. */
    static final String NOWHERE = "t.reply.nowhere";
    static final String[] QUEUES = { QUOTES, CONFIRMED, UNANSWERED, METADATA, THROUGH_OUTPUTS, NOWHERE };

    static final Class<?>[] APPLICATION = { QuoteDesk.class, QuoteRequest.class, Quote.class };

    @Inject
    RabbitPublisher publisher;

    @Inject
    QuoteDesk desk;

    @Test
    void aRequestIsAnsweredByASubscriberThroughItsReplyTo() {
        Quote quote = publisher.request(QUOTES, new QuoteRequest("q-1"), Quote.class, Duration.ofSeconds(10)).await()
                .atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-1", 42), quote);
        Delivery seen = desk.requests.get("q-1");
        assertTrue(seen.replyTo().startsWith("amq.rabbitmq.reply-to."), seen.replyTo());
        assertNotNull(seen.correlationId());
    }

    @Test
    void aConfirmedAnswerIsConfirmedAndReachesTheRequester() {
        Quote quote = publisher.request(CONFIRMED, new QuoteRequest("q-2"), Quote.class, Duration.ofSeconds(10))
                .await().atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-2", 43), quote);
        // RabbitMQ counts a direct reply unroutable though it delivers it: published mandatory, it would be returned.
        until(() -> desk.confirmedAnswers.containsKey("q-2"));
        assertEquals("confirmed", desk.confirmedAnswers.get("q-2"));
    }

    @Test
    void aRequestIsAnsweredThroughTheHandlersOutputs() {
        Quote quote = publisher.request(THROUGH_OUTPUTS, new QuoteRequest("q-5"), Quote.class, Duration.ofSeconds(10))
                .await().atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-5", 44), quote);
    }

    @Test
    void manyRequestsAtOnceEachGetTheirOwnAnswer() {
        List<Uni<Quote>> requests = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            requests.add(publisher.request(QUOTES, new QuoteRequest("many-" + i), Quote.class, Duration.ofSeconds(10)));
        }
        List<Quote> quotes = Uni.join().all(requests).andFailFast().await().atMost(Duration.ofSeconds(20));
        for (int i = 0; i < 20; i++) {
            assertEquals(new Quote("many-" + i, 42), quotes.get(i));
        }
    }

    /** The timeout is the caller's, in wall time on both brokers. */
    @Test
    void aRequestNobodyAnswersTimesOutNamingTheQueueAndTheTimeout() {
        declare(UNANSWERED);
        Throwable failure = failureOf(publisher.request(UNANSWERED, new QuoteRequest("q-3"), Quote.class,
                Duration.ofMillis(500)));
        assertInstanceOf(TimeoutException.class, failure);
        assertTrue(failure.getMessage().contains("queue '" + UNANSWERED + "'"), failure.getMessage());
        assertTrue(failure.getMessage().contains("PT0.5S"), failure.getMessage());
        assertTrue(failure.getMessage().contains("correlation id "), failure.getMessage());
        // The request itself expires with its timeout: nobody is left to read an answer to it.
        expiresWithItsTimeout(UNANSWERED);
    }

    /** The unanswered request leaves its queue once its expiration (the request's timeout) has passed. */
    abstract void expiresWithItsTimeout(String queue);

    @Test
    void aRequestNoQueueTakesFailsAtOnceNamingTheQueue() {
        Throwable failure = failureOf(publisher.request(NOWHERE, new QuoteRequest("q-4"), Quote.class,
                Duration.ofSeconds(30)));
        assertTrue(failure.getMessage().contains("unroutable"), failure.getMessage());
        assertTrue(failure.getMessage().contains("queue '" + NOWHERE + "'"), failure.getMessage());
    }

    @Test
    void aHandlerSeesTheReplyToAndCorrelationIdOfItsDelivery() {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(METADATA).payload("with").replyTo("answers")
                .correlationId("c-42"));
        publisher.sendConfirmedAndAwait(METADATA, "without");
        until(() -> desk.metadata.size() == 2);
        assertEquals("answers", desk.metadata.get("with").replyTo());
        assertEquals("c-42", desk.metadata.get("with").correlationId());
        assertNull(desk.metadata.get("without").replyTo());
        assertNull(desk.metadata.get("without").correlationId());
    }

    /** The failure the request ends with (it must end within 15 s). */
    static Throwable failureOf(Uni<?> request) {
        return request.onItem().transform(item -> (Throwable) new AssertionError("answered: " + item))
                .onFailure().recoverWithItem(failure -> failure)
                .await().atMost(Duration.ofSeconds(15));
    }

    public record QuoteRequest(String id) {
    }

    public record Quote(String id, int cents) {
    }

    public static class QuoteDesk {
        @Inject
        RabbitPublisher publisher;

        final Map<String, Delivery> requests = new ConcurrentHashMap<>();
        final Map<String, String> confirmedAnswers = new ConcurrentHashMap<>();
        final Map<String, Delivery> metadata = new ConcurrentHashMap<>();

        /** On the event loop: the answer is sent fire and forget, and the delivery acked once it is written. */
        @Subscriber(QUOTES)
        Uni<Void> quote(QuoteRequest request, Delivery delivery) {
            requests.put(request.id(), delivery);
            return publisher.send(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId())
                    .payload(new Quote(request.id(), 42)));
        }

        /** On a worker: the answer is sent and confirmed before the delivery is acked. */
        @Subscriber(CONFIRMED)
        void quoteConfirmed(QuoteRequest request, Delivery delivery) {
            publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId())
                    .payload(new Quote(request.id(), 43)));
            confirmedAnswers.put(request.id(), "confirmed");
        }

        @Subscriber(THROUGH_OUTPUTS)
        Outcome quoteThroughOutputs(QuoteRequest request, Outputs outputs) {
            outputs.reply(new Quote(request.id(), 44));
            return Outcome.ack();
        }

        @Subscriber(METADATA)
        void metadata(String body, Delivery delivery) {
            metadata.put(body, delivery);
        }
    }
}
