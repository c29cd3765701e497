package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmedChannel;

/** A replay's copies through the confirm engine, as the replay waits for them: what each outcome says, no broker. */
class ReplayFailureTest {

    private final ConfirmedChannel confirms = new ConfirmedChannel(Runnable::run, ConfirmedChannel.Untracked.IGNORED);
    private final AtomicLong numbers = new AtomicLong(1);
    private final BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] { BrokerChannel.class },
            (proxy, method, args) -> method.getName().equals("nextPublishSeqNo") ? numbers.getAndIncrement() : null);

    @Test
    void aConfirmCompletesWithNothingWrongAndAMultipleOneEveryEarlierCopy() throws Exception {
        CompletableFuture<String> first = replay(copy("a"));
        CompletableFuture<String> second = replay(copy("b"));
        confirms.acked(2, true);
        assertNull(first.getNow("open"));
        assertNull(second.getNow("open"));
    }

    @Test
    void aReturnBeforeItsConfirmSaysNoQueueTookIt() throws Exception {
        CompletableFuture<String> outcome = replay(copy("a"));
        confirms.returned(312, "NO_ROUTE", "", "refunds", copy("a"), new byte[0]);
        confirms.acked(1, false);
        assertEquals("RabbitMQ returned the copy (NO_ROUTE): no queue 'refunds' exists", outcome.getNow("open"));
    }

    @Test
    void aNackOrAClosedChannelSaysSo() throws Exception {
        CompletableFuture<String> nacked = replay(copy("a"));
        CompletableFuture<String> cut = replay(copy("b"));
        confirms.nacked(1, false);
        assertEquals("RabbitMQ nacked the copy", nacked.getNow("open"));
        assertFalse(cut.isDone());
        confirms.closed("connection reset");
        assertEquals("the channel closed (connection reset)", cut.getNow("open"));
    }

    /** A copy to queue 'refunds', published as the replay publishes it; completes with its failure, or null. */
    private CompletableFuture<String> replay(AMQP.BasicProperties properties) throws Exception {
        CompletableFuture<String> failure = new CompletableFuture<>();
        confirms.publish(channel, "", "refunds", true, properties, new byte[0],
                outcome -> failure.complete(ReplayFailure.of(outcome, "refunds")), 0);
        return failure;
    }

    private static AMQP.BasicProperties copy(String messageId) {
        return new AMQP.BasicProperties.Builder().messageId(messageId).build();
    }
}
