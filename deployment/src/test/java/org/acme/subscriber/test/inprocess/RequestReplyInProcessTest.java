package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerSession;
import io.quarkus.test.QuarkusUnitTest;
import io.smallrye.mutiny.Uni;

/**
 * Request and reply on the in-process broker, which gives direct reply-to as RabbitMQ does: the same answers, the same
 * timeout and the same refusal of a request no queue takes as on RabbitMQ ({@code RequestReplyTest}).
 */
class RequestReplyInProcessTest {

    static final String QUOTES = "t.reply.ip.quotes";
    static final String CONFIRMED = "t.reply.ip.confirmed";
    static final String UNANSWERED = "t.reply.ip.unanswered";
    static final String METADATA = "t.reply.ip.metadata";
    /** Answered through the handler's Outputs: the reply leaves with the ack, confirmed. */
    static final String THROUGH_OUTPUTS = "t.reply.ip.outputs";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(QuoteDesk.class, QuoteRequest.class, Quote.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    RabbitPublisher publisher;

    @Inject
    InProcessBroker broker;

    @Inject
    BrokerSession session;

    @Inject
    QuoteDesk desk;

    @Test
    void aRequestIsAnsweredByASubscriberThroughItsReplyTo() {
        Quote quote = publisher.request(QUOTES, new QuoteRequest("q-1"), Quote.class, Duration.ofSeconds(10)).await()
                .atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-1", 42), quote);
        assertTrue(desk.requests.get("q-1").replyTo().startsWith("amq.rabbitmq.reply-to."),
                desk.requests.get("q-1").replyTo());
    }

    @Test
    void aConfirmedAnswerIsConfirmedAndReachesTheRequester() {
        Quote quote = publisher.request(CONFIRMED, new QuoteRequest("q-2"), Quote.class, Duration.ofSeconds(10))
                .await().atMost(Duration.ofSeconds(15));
        assertEquals(new Quote("q-2", 43), quote);
        broker.awaitIdle();
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

    /** The timeout is the caller's, in wall time: the paused clock holds only broker TTLs and the runtime's delays. */
    @Test
    void aRequestNobodyAnswersTimesOutNamingTheQueueAndTheTimeout() throws Exception {
        try (BrokerChannel channel = session.connection().createChannel()) {
            channel.declareQueue(UNANSWERED, true, false, false, Map.of());
        }
        Throwable failure = failureOf(publisher.request(UNANSWERED, new QuoteRequest("q-3"), Quote.class,
                Duration.ofMillis(500)));
        assertInstanceOf(TimeoutException.class, failure);
        assertTrue(failure.getMessage().contains("queue '" + UNANSWERED + "'"), failure.getMessage());
        assertTrue(failure.getMessage().contains("PT0.5S"), failure.getMessage());
        assertEquals(1, broker.messages(UNANSWERED).size(), "the request waits, until the clock reaches its expiry");
        broker.advance(Duration.ofMillis(500));
        assertEquals(0, broker.messages(UNANSWERED).size(), "expired with its timeout");
    }

    @Test
    void aRequestNoQueueTakesFailsAtOnceNamingTheQueue() {
        Throwable failure = failureOf(publisher.request("t.reply.ip.nowhere", new QuoteRequest("q-4"), Quote.class,
                Duration.ofSeconds(30)));
        assertTrue(failure.getMessage().contains("unroutable"), failure.getMessage());
        assertTrue(failure.getMessage().contains("queue 't.reply.ip.nowhere'"), failure.getMessage());
    }

    @Test
    void aHandlerSeesTheReplyToAndCorrelationIdOfItsDelivery() {
        publisher.sendAndAwait(OutgoingMessage.toQueue(METADATA).payload("with").replyTo("answers")
                .correlationId("c-42"));
        publisher.sendAndAwait(METADATA, "without");
        broker.awaitIdle();
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

        @Subscriber(QUOTES)
        Uni<Void> quote(QuoteRequest request, Delivery delivery) {
            requests.put(request.id(), delivery);
            return publisher.send(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId())
                    .payload(new Quote(request.id(), 42)));
        }

        @Subscriber(CONFIRMED)
        void quoteConfirmed(QuoteRequest request, Delivery delivery) {
            publisher.sendAndAwait(OutgoingMessage.toQueue(delivery.replyTo()).correlationId(delivery.correlationId())
                    .payload(new Quote(request.id(), 43)));
            confirmedAnswers.put(request.id(), "confirmed");
        }

        @Subscriber(THROUGH_OUTPUTS)
        Outcome quoteThroughOutputs(QuoteRequest request, io.quarkiverse.rabbitmq.subscriber.Outputs outputs) {
            outputs.reply(new Quote(request.id(), 44));
            return Outcome.ack();
        }

        @Subscriber(METADATA)
        void metadata(String body, Delivery delivery) {
            metadata.put(body, delivery);
        }
    }
}
