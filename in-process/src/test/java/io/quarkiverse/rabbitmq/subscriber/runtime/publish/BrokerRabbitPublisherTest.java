package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.ApplicationObservers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;

/**
 * The publisher's whole messages and requests, on the in-process broker: a message arrives with the properties it set;
 * a request goes out with the direct reply-to address, a fresh correlation id and its timeout as expiration, and
 * completes with the reply a server sends back through {@code send} or {@code sendConfirmed}.
 */
class BrokerRabbitPublisherTest {

    record Quote(String id, int cents) {
    }

    private final InProcessServer server = new InProcessServer(new VirtualClock(0), InProcessServer.Version.V3_10);
    private final BrokerConnection publishing = server.connect();
    private BrokerRabbitPublisher publisher;
    private BrokerConnection serving;
    private BrokerChannel channel;

    @BeforeEach
    void start() throws Exception {
        publisher = new BrokerRabbitPublisher(io.quarkiverse.rabbitmq.subscriber.Broker.DEFAULT, () -> publishing,
                new io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs(new ObjectMapper(), java.util.List.of(),
                        Long.MAX_VALUE),
                config(Duration.ofSeconds(5)), null, new ApplicationObservers() {
                    @Override
                    public Observers get() {
                        return Observers.NONE;
                    }
                }, null, broker -> {
                    throw new IllegalArgumentException("no broker " + broker);
                });
        serving = server.connect();
        channel = serving.createChannel();
        for (String queue : List.of("inbox", "quotes", "unanswered")) {
            channel.declareQueue(queue, true, false, false, Map.of());
        }
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void aWholeMessageArrivesWithThePropertiesItSet() throws Exception {
        publisher.sendConfirmedAndAwait(OutgoingMessage.toQueue("inbox").payload("hello").header("tenant", "acme")
                .messageId("m-1").correlationId("c-1").replyTo("answers").expiration(Duration.ofSeconds(90))
                .priority(4).persistent(false));
        publisher.send(OutgoingMessage.toQueue("inbox").payload(new Quote("q", 1))).await().indefinitely();
        server.awaitQuiet(Duration.ofSeconds(5));
        List<InProcessServer.Waiting> waiting = server.waiting("inbox");
        AMQP.BasicProperties set = waiting.get(0).properties();
        assertEquals("hello", new String(waiting.get(0).body(), StandardCharsets.UTF_8));
        assertEquals("m-1", set.getMessageId());
        assertEquals("c-1", set.getCorrelationId());
        assertEquals("answers", set.getReplyTo());
        assertEquals("90000", set.getExpiration());
        assertEquals(4, set.getPriority());
        assertEquals(1, set.getDeliveryMode());
        assertEquals("text/plain", set.getContentType());
        assertEquals("acme", set.getHeaders().get("tenant").toString());
        AMQP.BasicProperties defaults = waiting.get(1).properties();
        UUID.fromString(defaults.getMessageId());
        assertEquals("application/json", defaults.getContentType());
        assertEquals(2, defaults.getDeliveryMode());
        assertNull(defaults.getHeaders());
    }

    @Test
    void aRequestIsAnsweredThroughItsReplyToWithItsCorrelationId() throws Exception {
        CompletableFuture<Void> answered = answerWith(false);
        Quote quote = publisher.request("quotes", Map.of("id", "q-7"), Quote.class, Duration.ofSeconds(5)).await()
                .atMost(Duration.ofSeconds(5));
        assertEquals(new Quote("q-7", 42), quote);
        answered.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aConfirmedReplyToADirectReplyToAddressIsConfirmedNotReturnedAsUnroutable() throws Exception {
        CompletableFuture<Void> answered = answerWith(true);
        assertEquals(new Quote("q-8", 42), publisher.request("quotes", Map.of("id", "q-8"), Quote.class,
                Duration.ofSeconds(5)).await().atMost(Duration.ofSeconds(5)));
        answered.get(5, TimeUnit.SECONDS);
    }

    @Test
    void aRequestCarriesTheDirectReplyToAddressAFreshCorrelationIdAndExpiresWithItsTimeout() throws Exception {
        var pending = publisher.request("unanswered", "ping", String.class, Duration.ofMillis(300))
                .subscribeAsCompletionStage();
        server.awaitQuiet(Duration.ofSeconds(5));
        AMQP.BasicProperties request = server.waiting("unanswered").get(0).properties();
        assertTrue(request.getReplyTo().startsWith(BrokerChannel.DIRECT_REPLY_TO + "."), request.getReplyTo());
        UUID.fromString(request.getCorrelationId());
        assertEquals("300", request.getExpiration());
        assertEquals("text/plain", request.getContentType());
        Throwable failure = assertThrows(java.util.concurrent.ExecutionException.class, pending::get).getCause();
        assertInstanceOf(TimeoutException.class, failure);
        assertEquals("No reply to the request to queue 'unanswered' came within PT0.3S (correlation id "
                + request.getCorrelationId() + ")", failure.getMessage());
    }

    @Test
    void aRequestSetsItsOwnReplyToAndCorrelationIdAndNeedsAPositiveTimeout() {
        IllegalArgumentException own = assertThrows(IllegalArgumentException.class, () -> publisher.request(
                OutgoingMessage.toQueue("quotes").correlationId("mine"), String.class, Duration.ofSeconds(1)));
        assertTrue(own.getMessage().contains("request() sets both itself"), own.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> publisher.request("quotes", "x", String.class, Duration.ZERO));
        assertEquals("A request to queue 'quotes' needs a positive timeout, and was given PT0S", zero.getMessage());
    }

    @Test
    void aRequestNoQueueTakesFailsNamingTheQueue() {
        RuntimeException failure = assertThrows(RuntimeException.class, () -> publisher
                .request("t.missing", "x", String.class, Duration.ofSeconds(5)).await().atMost(Duration.ofSeconds(5)));
        assertTrue(failure.getMessage().contains("queue 't.missing'"), failure.getMessage());
        assertTrue(failure.getMessage().contains("unroutable"), failure.getMessage());
    }

    /**
     * A server on its own connection: takes a request off "quotes" and answers it through the publisher; the future
     * tells how the answer's send ended.
     */
    private CompletableFuture<Void> answerWith(boolean confirmed) throws Exception {
        CompletableFuture<Void> answered = new CompletableFuture<>();
        channel.consumeAutoAck("quotes", (tag, envelope, properties, body) -> {
            String id;
            try {
                id = new ObjectMapper().readTree(body).get("id").asText();
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            OutgoingMessage reply = OutgoingMessage.toQueue(properties.getReplyTo())
                    .correlationId(properties.getCorrelationId()).payload(new Quote(id, 42));
            // Off the broker's thread: a confirmed send waits for the broker.
            new Thread(() -> {
                try {
                    if (confirmed) {
                        publisher.sendConfirmedAndAwait(reply);
                    } else {
                        publisher.send(reply).await().indefinitely();
                    }
                    answered.complete(null);
                } catch (RuntimeException e) {
                    answered.completeExceptionally(e);
                }
            }).start();
        });
        return answered;
    }

    private static SubscriberConfig config(Duration confirmTimeout) {
        SubscriberConfig.Publisher publisherConfig = (SubscriberConfig.Publisher) Proxy.newProxyInstance(
                BrokerRabbitPublisherTest.class.getClassLoader(), new Class<?>[] { SubscriberConfig.Publisher.class },
                (proxy, method, args) -> method.getName().equals("confirmTimeout") ? confirmTimeout : null);
        return (SubscriberConfig) Proxy.newProxyInstance(BrokerRabbitPublisherTest.class.getClassLoader(),
                new Class<?>[] { SubscriberConfig.class },
                (proxy, method, args) -> method.getName().equals("publisher") ? publisherConfig : null);
    }
}
