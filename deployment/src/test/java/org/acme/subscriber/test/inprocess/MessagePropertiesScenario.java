package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;

import org.acme.subscriber.test.Scenarios;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.MessageProperties;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.RabbitPublisher;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;

/**
 * A handler and a test read a message's properties without amqp-client's types: what an {@link OutgoingMessage} sets
 * comes back under the same names from {@link Delivery#properties()}, on the first attempt, on the copy a retry
 * publishes and on the dead letter. Run by
 * {@link InProcessBasicsTest}, which calls each of its methods in one application with the others.
 */
interface MessagePropertiesScenario {

    default void aHandlerReadsThePropertiesAnOutgoingMessageSetWithoutTheClientsTypes() {
        InProcessBroker broker = Scenarios.bean(InProcessBroker.class);
        Handler handler = Scenarios.bean(Handler.class);
        Scenarios.bean(RabbitPublisher.class).sendConfirmed(OutgoingMessage.toQueue("mp.orders").payload("order-1")
                .messageId("m-1").correlationId("c-1").replyTo("mp.replies").expiration(Duration.ofMinutes(10))
                .priority(3).contentType("text/plain; charset=utf-8")).await().atMost(Duration.ofSeconds(10));
        broker.awaitIdle();

        assertEquals(2, handler.seen.size(), "the first attempt and the copy the retry published");
        MessageProperties first = handler.seen.get(0);
        assertEquals("text/plain; charset=utf-8", first.contentType());
        assertEquals(true, first.persistent());
        assertEquals(OptionalInt.of(3), first.priority());
        assertEquals("c-1", first.correlationId());
        assertEquals("mp.replies", first.replyTo());
        assertEquals(Optional.of(Duration.ofMinutes(10)), first.expiration());
        assertEquals("m-1", first.messageId());
        assertEquals(first, handler.seen.get(1), "a copy carries the original's properties");

        List<InProcessBroker.QueuedMessage> dead = broker.messages("mp.orders.dead");
        assertEquals(1, dead.size());
        // The test API shows the dead letter as it waits: published by the runtime, under the application's user, and
        // without the publisher's TTL, which would lose it in its dead-letter queue.
        MessageProperties deadLetter = dead.get(0).properties();
        assertEquals(new MessageProperties(first.contentType(), first.contentEncoding(), first.persistent(),
                first.priority(), first.correlationId(), first.replyTo(), Optional.empty(), first.messageId(),
                first.timestamp(), first.type(), "guest", first.appId()), deadLetter);
    }

    public static class Handler {
        final List<MessageProperties> seen = new CopyOnWriteArrayList<>();

        @Subscriber(value = "mp.orders", maxAttempts = 2, deadLetter = "mp.orders.dead")
        Outcome handle(String body, Delivery delivery) {
            seen.add(delivery.properties());
            return Outcome.retry();
        }
    }
}
