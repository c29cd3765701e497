package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Requests over direct reply-to, on either broker (both refuse a request from a channel that does not consume the
 * pseudo-queue): replies are decoded and found by correlation id whatever their order, one nobody waits for is
 * ignored, and a timeout, a return or a closed channel fails the request, naming it. The outcome reaches the caller on
 * its Vert.x context, or a worker, never the broker's thread.
 */
abstract class DirectReplyRequestsContract {

    record Quote(String id, int cents) {
    }

    static final String QUEUE = "t.reply.unit.quotes";
    /** A queue never declared. */
    static final String NOWHERE = "t.reply.unit.nowhere";
    private static final Duration LONG = Duration.ofSeconds(10);

    private final ObjectMapper mapper = new ObjectMapper();
    private final AtomicReference<BrokerConnection> connection = new AtomicReference<>();
    private final DirectReplyRequests requests = new DirectReplyRequests(connection::get);
    /** The requests the queue's consumer took: their reply-to, correlation id and body. */
    private final List<Taken> taken = new CopyOnWriteArrayList<>();
    private BrokerConnection answering;
    private BrokerChannel answers;
    private Vertx vertx;

    record Taken(String replyTo, String correlationId, String body) {
    }

    /** A new connection to the broker under test. */
    abstract BrokerConnection connect() throws Exception;

    /**
     * Waits until what was published so far has been delivered, where it can be, and checks the condition still holds
     * then.
     */
    abstract void quiet(java.util.function.BooleanSupplier holds) throws Exception;

    @BeforeEach
    void serveTheQueue() throws Exception {
        connection.set(connect());
        answering = connect();
        answers = answering.createChannel();
        answers.declareQueue(QUEUE, true, false, false, Map.of());
        answers.consumeAutoAck(QUEUE, (tag, envelope, properties, body) -> taken.add(
                new Taken(properties.getReplyTo(), properties.getCorrelationId(), utf8(body))));
    }

    @AfterEach
    void stop() throws Exception {
        if (vertx != null) {
            vertx.close();
        }
        AdminChannel.of(answering.createChannel()).deleteQueue(QUEUE);
        answering.close();
        connection.get().close();
        stopBroker();
    }

    /** After each test, once its connections are closed. */
    void stopBroker() {
    }

    @Test
    void aReplyIsDecodedIntoTheTypeAsked() throws Exception {
        CompletableFuture<Object> quote = request("{\"id\":\"q-1\"}", Quote.class, LONG);
        Taken request = awaitTaken(1).get(0);
        assertTrue(request.replyTo().startsWith("amq.rabbitmq.reply-to."), request.replyTo());
        assertEquals("c-1", request.correlationId());
        answer(request.replyTo(), "c-1", "{\"id\":\"q-1\",\"cents\":42}");
        assertEquals(new Quote("q-1", 42), quote.get(5, TimeUnit.SECONDS));

        CompletableFuture<Object> text = request("text?", String.class, LONG, "c-2");
        answer(awaitTaken(2).get(1).replyTo(), "c-2", "text!");
        assertEquals("text!", text.get(5, TimeUnit.SECONDS));

        CompletableFuture<Object> bytes = request("bytes?", byte[].class, LONG, "c-3");
        answer(awaitTaken(3).get(2).replyTo(), "c-3", "bytes!");
        assertArrayEquals("bytes!".getBytes(StandardCharsets.UTF_8), (byte[]) bytes.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aReplyThatCannotBeDecodedFailsTheRequestNamingTheType() throws Exception {
        CompletableFuture<Object> quote = request("{}", Quote.class, LONG, "c-1");
        answer(awaitTaken(1).get(0).replyTo(), "c-1", "not json");
        Throwable failure = failure(quote);
        assertTrue(failure.getMessage().startsWith("The reply to the request to queue '" + QUEUE
                + "' (correlation id c-1) cannot be decoded into " + Quote.class.getTypeName() + ": "),
                failure.getMessage());
    }

    @Test
    void repliesFindTheirRequestByCorrelationIdWhateverTheirOrder() throws Exception {
        CompletableFuture<Object> first = request("one", String.class, LONG, "c-1");
        CompletableFuture<Object> second = request("two", String.class, LONG, "c-2");
        List<Taken> both = awaitTaken(2);
        assertEquals(both.get(0).replyTo(), both.get(1).replyTo(), "one channel, one address");
        answer(both.get(1).replyTo(), "c-2", "for two");
        answer(both.get(0).replyTo(), "c-1", "for one");
        assertEquals("for one", first.get(5, TimeUnit.SECONDS));
        assertEquals("for two", second.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aReplyNoRequestWaitsForIsIgnored() throws Exception {
        CompletableFuture<Object> reply = request("one", String.class, LONG, "c-1");
        String address = awaitTaken(1).get(0).replyTo();
        answer(address, "c-unknown", "not for us");
        answer(address, null, "no correlation id");
        quiet(() -> !reply.isDone());
        assertFalse(reply.isDone(), "still waiting");
        answer(address, "c-1", "for one");
        assertEquals("for one", reply.get(5, TimeUnit.SECONDS));
        answer(address, "c-1", "a second answer");
        quiet(() -> reply.isDone());
    }

    @Test
    void noReplyInTimeFailsWithATimeoutNamingTheQueueTheTimeoutAndTheCorrelationId() throws Exception {
        Duration timeout = Duration.ofMillis(200);
        CompletableFuture<Object> reply = request("one", String.class, timeout, "c-slow");
        Throwable failure = failure(reply);
        assertInstanceOf(TimeoutException.class, failure);
        assertEquals("No reply to the request to queue '" + QUEUE + "' came within PT0.2S (correlation id c-slow)",
                failure.getMessage());
        // A reply after the timeout finds nothing waiting; the next request is answered as usual.
        answer(awaitTaken(1).get(0).replyTo(), "c-slow", "too late");
        CompletableFuture<Object> next = request("two", String.class, LONG, "c-next");
        answer(awaitTaken(2).get(1).replyTo(), "c-next", "in time");
        assertEquals("in time", next.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aRequestNoQueueTakesFailsAtOnceNamingTheQueue() throws Exception {
        CompletableFuture<Object> reply = requests.request(null, "", NOWHERE, properties("c-lost"),
                "lost".getBytes(StandardCharsets.UTF_8),
                new Codecs(mapper, java.util.List.of(), Long.MAX_VALUE).decoder(String.class), LONG);
        long started = System.nanoTime();
        Throwable failure = failure(reply);
        assertTrue(System.nanoTime() - started < LONG.toNanos() / 2, "well before its timeout");
        assertEquals("The request to queue '" + NOWHERE + "' (correlation id c-lost) is unroutable (NO_ROUTE): no "
                + "queue of that name exists", failure.getMessage());
    }

    @Test
    void aClosedChannelFailsEveryRequestWaitingOnItAndTheNextRequestGetsANewOne() throws Exception {
        CompletableFuture<Object> first = request("one", String.class, LONG, "c-1");
        CompletableFuture<Object> second = request("two", String.class, LONG, "c-2");
        String lostAddress = awaitTaken(2).get(0).replyTo();
        connection.get().close();
        for (var pair : List.of(Map.entry(first, "c-1"), Map.entry(second, "c-2"))) {
            Throwable failure = failure(pair.getKey());
            String expected = "No reply to the request to queue '" + QUEUE + "' (correlation id " + pair.getValue()
                    + ") can come any more: the channel closed (";
            assertTrue(failure.getMessage().startsWith(expected), failure.getMessage());
            assertTrue(failure.getMessage().endsWith(") before it came"), failure.getMessage());
        }
        connection.set(connect());
        CompletableFuture<Object> third = request("three", String.class, LONG, "c-3");
        Taken request = awaitTaken(3).get(2);
        assertNotEquals(lostAddress, request.replyTo(), "a new channel, a new address");
        answer(request.replyTo(), "c-3", "for three");
        assertEquals("for three", third.get(5, TimeUnit.SECONDS));
    }

    @Test
    void theCallerHearsTheOutcomeOnItsContextOrAWorkerNeverOnTheBrokerThread() throws Exception {
        vertx = Vertx.vertx();
        Context loop = vertx.getOrCreateContext();
        CompletableFuture<Context> heardOn = new CompletableFuture<>();
        loop.runOnContext(ignored -> {
            try {
                requests.request(loop, "", QUEUE, properties("c-1"), "one".getBytes(StandardCharsets.UTF_8),
                        new Codecs(mapper, java.util.List.of(), Long.MAX_VALUE).decoder(String.class), LONG)
                        .whenComplete((reply, failure) -> heardOn.complete(Vertx.currentContext()));
            } catch (Exception e) {
                heardOn.completeExceptionally(e);
            }
        });
        answer(awaitTaken(1).get(0).replyTo(), "c-1", "for one");
        assertSame(loop, heardOn.get(5, TimeUnit.SECONDS));

        java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors
                .newSingleThreadExecutor(task -> new Thread(task, "test-worker"));
        io.smallrye.mutiny.infrastructure.Infrastructure.setDefaultExecutor(workers);
        try {
            CompletableFuture<String> thread = new CompletableFuture<>();
            request("two", String.class, LONG, "c-2")
                    .whenComplete((reply, failure) -> thread.complete(Thread.currentThread().getName()));
            answer(awaitTaken(2).get(1).replyTo(), "c-2", "for two");
            assertEquals("test-worker", thread.get(5, TimeUnit.SECONDS), "a caller without a context: a worker");
        } finally {
            io.smallrye.mutiny.infrastructure.Infrastructure.setDefaultExecutor();
            workers.shutdown();
        }
    }

    // ---- helpers ------------------------------------------------------------------------------------------------

    private CompletableFuture<Object> request(String body, Class<?> type, Duration timeout) throws Exception {
        return request(body, type, timeout, "c-1");
    }

    private CompletableFuture<Object> request(String body, Class<?> type, Duration timeout, String correlationId)
            throws Exception {
        return requests.request(null, "", QUEUE, properties(correlationId), body.getBytes(StandardCharsets.UTF_8),
                new Codecs(mapper, java.util.List.of(), Long.MAX_VALUE).decoder(type), timeout);
    }

    private static AMQP.BasicProperties properties(String correlationId) {
        return new AMQP.BasicProperties.Builder().replyTo(BrokerChannel.DIRECT_REPLY_TO).correlationId(correlationId)
                .build();
    }

    /** Publishes an answer from the other connection, as a server would. */
    private void answer(String address, String correlationId, String body) throws Exception {
        answers.publish("", address, false, new AMQP.BasicProperties.Builder().correlationId(correlationId).build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private List<Taken> awaitTaken(int count) {
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> taken.size() >= count);
        return taken;
    }

    private static Throwable failure(CompletableFuture<Object> reply) throws Exception {
        try {
            reply.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the request did not fail");
    }

    private static String utf8(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }
}
