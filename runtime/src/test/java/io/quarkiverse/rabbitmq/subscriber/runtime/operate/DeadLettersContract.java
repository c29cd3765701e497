package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.DeadLetters;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PlainHeaders;

/**
 * Peek and replay on either broker, with three dead letters put in a queue by hand: one of the runtime's (it names its
 * queue in {@code x-original-queue}), one like a quorum queue's server dead letter (its queue is in {@code x-death}),
 * and one that says nowhere where it came from. Peek leaves them all; replay moves the first two back, each confirmed
 * before it is acked, and stops at the third, which stays.
 */
abstract class DeadLettersContract {

    static final String DEAD = "t.dlq.unit.dead";
    static final String REFUNDS = "t.dlq.unit.refunds";
    static final String PAYMENTS = "t.dlq.unit.payments";
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(5);

    private BrokerConnection connection;
    private AdminChannel admin;

    /** A new connection to the broker under test. */
    abstract BrokerConnection connect() throws Exception;

    /** After each test, once its connection is closed. */
    void stopBroker() {
    }

    @BeforeEach
    void deadLettersWait() throws Exception {
        connection = connect();
        admin = AdminChannel.of(connection.createChannel());
        for (String queue : List.of(DEAD, REFUNDS, PAYMENTS)) {
            admin.deleteQueue(queue);
            admin.declareQueue(queue, true, false, false, Map.of());
        }
        // The runtime's dead letters go under its own user (guest on both brokers here), as RabbitMQ checks.
        publishAsRuntime("m-ours", "ours", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, REFUNDS, "x-retry-count", 3,
                Delivery.EXCEPTION_TYPE_HEADER, "java.lang.IllegalStateException",
                Delivery.EXCEPTION_MESSAGE_HEADER, "card declined"));
        publish("m-server", "server", Map.of("x-death", List.of(Map.of("queue", PAYMENTS, "reason", "delivery_limit",
                "count", 1L, "exchange", "", "routing-keys", List.of(PAYMENTS))), "x-first-death-queue", PAYMENTS,
                "x-first-death-reason", "delivery_limit", "x-first-death-exchange", ""));
        publish("m-lost", "lost", Map.of("tenant", "acme"));
        awaitDepth(DEAD, 3);
    }

    @AfterEach
    void deleteQueues() throws Exception {
        for (String queue : List.of(DEAD, REFUNDS, PAYMENTS)) {
            admin.deleteQueue(queue);
        }
        connection.close();
        stopBroker();
    }

    @Test
    void peekShowsWhatWaitsHeadFirstAndLeavesIt() throws Exception {
        List<DeadLetter> seen = peek(10);
        assertEquals(List.of("m-ours", "m-server", "m-lost"), seen.stream().map(DeadLetter::messageId).toList());
        DeadLetter ours = seen.get(0);
        assertEquals(REFUNDS, ours.sourceQueue());
        assertEquals("java.lang.IllegalStateException", ours.exceptionType());
        assertEquals("card declined", ours.exceptionMessage());
        assertEquals(3, ours.attempts());
        assertEquals("ours", ours.bodyPreview());
        assertEquals(4, ours.bodySize());
        DeadLetter server = seen.get(1);
        assertEquals(PAYMENTS, server.sourceQueue());
        assertEquals("delivery_limit", server.reason());
        assertNull(server.exceptionType());
        DeadLetter lost = seen.get(2);
        assertNull(lost.sourceQueue());
        assertEquals("acme", lost.header("tenant"));

        awaitDepth(DEAD, 3);
        assertEquals(List.of("m-ours", "m-server"), peek(2).stream().map(DeadLetter::messageId).toList(),
                "again, in the same order, at most max");
        awaitDepth(DEAD, 3);
    }

    @Test
    void replayMovesEachBackToItsQueueAndStopsAtOneThatSaysNotWhere() throws Exception {
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> replay(10));
        assertEquals("Cannot tell which queue the dead letter message-id m-lost in queue '" + DEAD + "' came from: it "
                + "has no x-original-queue (of the runtime's), x-death or x-first-death-queue header; it stays in '" + DEAD
                + "' (2 moved before it)", failure.getMessage());
        awaitDepth(DEAD, 1);
        assertEquals("m-lost", peek(1).get(0).messageId());

        Fetched ours = take(REFUNDS);
        assertEquals("m-ours", ours.properties().getMessageId());
        assertEquals("ours", new String(ours.body(), StandardCharsets.UTF_8));
        Map<String, Object> oursHeaders = PlainHeaders.of(ours.properties().getHeaders());
        assertEquals(Map.of(Delivery.ORIGINAL_QUEUE_HEADER, REFUNDS, DeadLetters.REPLAYED_HEADER, 1), oursHeaders);
        assertEquals("guest", ours.properties().getUserId(), "the replay publishes as the runtime's user");

        Fetched server = take(PAYMENTS);
        assertEquals("m-server", server.properties().getMessageId());
        Map<String, Object> serverHeaders = PlainHeaders.of(server.properties().getHeaders());
        assertEquals(1, ((Number) serverHeaders.get(DeadLetters.REPLAYED_HEADER)).intValue());
        assertFalse(serverHeaders.keySet().stream().anyMatch(name -> name.startsWith("x-death")
                || name.startsWith("x-first-death") || name.startsWith("x-last-death")), serverHeaders::toString);
    }

    @Test
    void replayMovesAtMostMax() throws Exception {
        assertEquals(1, replay(1));
        awaitDepth(DEAD, 2);
        awaitDepth(REFUNDS, 1);
        assertEquals(List.of("m-server", "m-lost"), peek(10).stream().map(DeadLetter::messageId).toList());
        assertEquals(0, replay(0));
    }

    @Test
    void aReplayToAQueueThatIsGoneFailsAndLeavesTheDeadLetterAtTheHead() throws Exception {
        admin.deleteQueue(REFUNDS);
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> replay(10));
        assertTrue(failure.getMessage().startsWith("Replaying the dead letter message-id m-ours from queue '" + DEAD
                + "' to queue '" + REFUNDS + "' failed: RabbitMQ returned the copy (NO_ROUTE): no queue '" + REFUNDS
                + "' exists; it stays in '" + DEAD + "'"), failure.getMessage());
        awaitDepth(DEAD, 3);
        assertEquals(List.of("m-ours", "m-server", "m-lost"), peek(10).stream().map(DeadLetter::messageId).toList());
    }

    @Test
    void aMessageThatComesBackDuringTheReplayIsNotTakenAgain() throws Exception {
        admin.purgeQueue(DEAD);
        // Both came from the dead-letter queue itself: each replayed copy lands behind the rest, as a message its
        // handler dead-letters again does.
        publishAsRuntime("m-again-1", "again", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, DEAD));
        publishAsRuntime("m-again-2", "again", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, DEAD));
        awaitDepth(DEAD, 2);
        assertEquals(2, replay(100), "what waited when the replay began, each once");
        awaitDepth(DEAD, 2);
    }

    @Test
    void aPublishersForgedSourceIsNotFollowed() throws Exception {
        admin.purgeQueue(DEAD);
        // Published by someone else (no user-id of the runtime's): its x-original-queue is the publisher's word.
        publish("m-forged", "forged", Map.of(Delivery.ORIGINAL_QUEUE_HEADER, REFUNDS));
        // And x-death naming a queue no subscriber of the application consumes.
        publish("m-elsewhere", "elsewhere", Map.of("x-death", List.of(Map.of("queue", "t.dlq.unit.payroll",
                "reason", "rejected", "count", 1L, "exchange", "", "routing-keys", List.of("t.dlq.unit.payroll")))));
        awaitDepth(DEAD, 2);
        assertNull(peek(1).get(0).sourceQueue(), "a forged x-original-queue is not shown as the source");
        IllegalStateException failure = assertThrows(IllegalStateException.class, () -> replay(10));
        assertTrue(failure.getMessage().startsWith("Cannot tell which queue the dead letter message-id m-forged"),
                failure.getMessage());
        awaitDepth(DEAD, 2);
        admin.get(DEAD, true);
        failure = assertThrows(IllegalStateException.class, () -> replay(10));
        assertEquals("The dead letter message-id m-elsewhere in queue '" + DEAD + "' says it came from queue "
                + "'t.dlq.unit.payroll', which no subscriber of this application that dead-letters into '" + DEAD
                + "' consumes (" + DEAD + ", " + PAYMENTS + ", " + REFUNDS + "): a replay moves letters only back to "
                + "those, since a publisher can write the headers that name the source. It stays in '" + DEAD
                + "' (0 moved before it)", failure.getMessage());
        awaitDepth(DEAD, 1);
        assertEquals(0, admin.declareQueuePassive(REFUNDS).messageCount());
    }

    @Test
    void anEmptyQueueHasNothingToShowOrMove() throws Exception {
        admin.purgeQueue(DEAD);
        assertEquals(List.of(), peek(10));
        assertEquals(0, replay(10));
    }

    @Test
    void peekingAtAQueueThatDoesNotExistFailsNamingIt() {
        IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> DeadLetterPeek.peek(connection, "t.dlq.unit.nowhere", 10, "x-retry-count"));
        assertTrue(failure.getMessage().startsWith("Cannot peek at queue 't.dlq.unit.nowhere': "),
                failure.getMessage());
    }

    private List<DeadLetter> peek(int max) {
        return DeadLetterPeek.peek(connection, DEAD, max, "x-retry-count");
    }

    private int replay(int max) {
        // The application's subscribers consume the three queues.
        return new DeadLetterReplay(connection, "x-retry-count", CONFIRM_TIMEOUT,
                queue -> new ReplayTargets(java.util.Set.of(REFUNDS, PAYMENTS, DEAD))).replay(DEAD, max);
    }

    private void publish(String messageId, String body, Map<String, Object> headers) throws Exception {
        admin.publish("", DEAD, false, new AMQP.BasicProperties.Builder().messageId(messageId).headers(headers).build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    private void publishAsRuntime(String messageId, String body, Map<String, Object> headers) throws Exception {
        admin.publish("", DEAD, false, new AMQP.BasicProperties.Builder().messageId(messageId).userId("guest")
                .headers(headers).build(), body.getBytes(StandardCharsets.UTF_8));
    }

    private Fetched take(String queue) throws Exception {
        awaitDepth(queue, 1);
        Fetched fetched = admin.get(queue, true);
        assertEquals(0, fetched.messageCount(), "one only");
        return fetched;
    }

    /** Messages a closed channel returns, or a publish, reach the queue soon after, not at once on RabbitMQ. */
    private void awaitDepth(String queue, int depth) {
        org.awaitility.Awaitility.await("messages in '" + queue + "'").atMost(Duration.ofSeconds(5))
                .until(() -> admin.declareQueuePassive(queue).messageCount(), count -> count == depth);
    }
}
