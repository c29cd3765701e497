package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;

/** The confirm engine without a broker: what each publish is told, once, and when it is no longer followed. */
class ConfirmedChannelTest {

    private final List<String> told = new ArrayList<>();
    private final List<String> untracked = new ArrayList<>();
    private final ConfirmedChannel confirms = new ConfirmedChannel(Runnable::run,
            (replyText, exchange, routingKey, properties, body) -> untracked.add(routingKey + ":" + replyText));
    private final AtomicLong numbers = new AtomicLong(1);
    /** Whether the channel's next publish throws, as the client does for a frame it refuses. */
    private boolean refuseNext;
    private final BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                if (method.getName().equals("nextPublishSeqNo")) {
                    return numbers.get();
                }
                if (method.getName().equals("publish")) {
                    if (refuseNext) {
                        refuseNext = false;
                        throw new IOException("refused by the client");
                    }
                    numbers.incrementAndGet();
                }
                return null;
            });

    @Test
    void eachPublishIsToldOnceWhatTheBrokerSaid() throws Exception {
        publish("a", "q");
        publish("b", "q");
        publish("c", "q");
        confirms.acked(2, true);
        confirms.nacked(3, false);
        confirms.acked(3, false);
        assertEquals(List.of("a:CONFIRMED", "b:CONFIRMED", "c:NACKED"), told);
        assertTrue(confirms.isEmpty());
    }

    @Test
    void aReturnAnswersTheOldestPublishOfThatMessageToThatQueueAndAnUnknownOneGoesToUntracked() throws Exception {
        publish("a", "q");
        publish("a", "q");
        confirms.returned(312, "NO_ROUTE", "", "q", properties("a"), new byte[0]);
        confirms.returned(312, "NO_ROUTE", "", "elsewhere", properties("z"), new byte[0]);
        confirms.acked(2, true);
        assertEquals(List.of("a:RETURNED:NO_ROUTE", "a:CONFIRMED"), told);
        assertEquals(List.of("elsewhere:NO_ROUTE"), untracked);
    }

    @Test
    void aRefusingCloseRefusedTheOldestInFlightOnlyAndCutTheOthers() throws Exception {
        publish("a", "q");
        publish("b", "q");
        confirms.closed("channel error; protocol method: #method<channel.close>(reply-code=406, reply-text="
                + "PRECONDITION_FAILED - message size larger than configured max size, class-id=60, method-id=40)");
        assertEquals(2, told.size());
        assertTrue(told.get(0).startsWith("a:CLOSED:refused"), told.get(0));
        assertTrue(told.get(1).startsWith("b:CLOSED:lost"), told.get(1));
        assertTrue(confirms.isEmpty(), "no answer comes after a close");
    }

    @Test
    void aPublishTheClientRefusedIsNotFollowedAndAForgottenOneIsNotTold() throws Exception {
        refuseNext = true;
        assertThrows(IOException.class, () -> publish("a", "q"));
        assertTrue(confirms.isEmpty(), "never written: not followed");
        java.util.function.Consumer<PublishOutcome> answer = outcome -> told.add("b:" + outcome.kind());
        long number = confirms.publish(channel, "", "q", true, properties("b"), new byte[0], answer, 0);
        confirms.forget(number, answer);
        confirms.acked(number, false);
        assertEquals(List.of(), told);
    }

    private void publish(String messageId, String queue) throws IOException {
        confirms.publish(channel, "", queue, true, properties(messageId), new byte[0], outcome -> told.add(messageId + ":"
                + outcome.kind() + (outcome.kind() == PublishOutcome.Kind.RETURNED ? ":" + outcome.reason() : "")
                + (outcome.kind() == PublishOutcome.Kind.CLOSED ? (outcome.refused() ? ":refused" : ":lost") : "")),
                0);
    }

    private static AMQP.BasicProperties properties(String messageId) {
        return new AMQP.BasicProperties.Builder().messageId(messageId).build();
    }
}
