package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.enterprise.invoke.Invoker;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkus.runtime.RuntimeValue;

/** The stage that reads what a handler's result means, without an application. */
class ResultReadingTest {

    private static ResultReading reading(SubscriberDefinition.ReturnKind kind) {
        Invoker<Object, Object> invoker = (instance, arguments) -> null;
        SubscriberDefinition definition = new SubscriberDefinition(
                SubscriptionSpec.builder("q").deadLetterOn(List.of(IllegalArgumentException.class.getName())).build(),
                "org.acme.Handlers#handle", SubscriberDefinition.PayloadKind.STRING, "java.lang.String", 1, 0, -1, -1,
                kind, SubscriberDefinition.ExecutionModel.EVENT_LOOP, new RuntimeValue<>(invoker));
        return new ResultReading(definition);
    }

    @Test
    void anOutcomeIsWhatItSays() {
        Verdict result = reading(SubscriberDefinition.ReturnKind.OUTCOME).read(Outcome.retry(), false);
        assertEquals(Outcome.retry(), result.outcome());
    }

    @Test
    void nullIsAnAckForAVoidHandlerAndAFailureForAnOutcomeOne() {
        assertEquals(Outcome.ack(), (reading(SubscriberDefinition.ReturnKind.VOID)
                .read(null, false)).outcome());
        assertEquals(Outcome.ack(), (reading(SubscriberDefinition.ReturnKind.ASYNC_VOID)
                .read(null, true)).outcome());
        assertTrue(reading(SubscriberDefinition.ReturnKind.OUTCOME).read(null, false).isFailed());
    }

    @Test
    void aThrowOrAValueOfAnotherTypeFailsAndADeadLetterOnTypeSaysSo() {
        ResultReading reading = reading(SubscriberDefinition.ReturnKind.OUTCOME);
        Verdict other = reading.read("not an outcome", false);
        assertFalse(other.deadLetterNow());
        Verdict thrown = reading
                .read(Verdict.thrown(new NumberFormatException("bad")), false);
        assertTrue(thrown.deadLetterNow(), "a subtype of a deadLetterOn type");
    }
}
