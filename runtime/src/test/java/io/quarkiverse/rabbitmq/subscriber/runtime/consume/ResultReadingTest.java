package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.enterprise.invoke.Invoker;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.HandlerResult;
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
        HandlerResult result = reading(SubscriberDefinition.ReturnKind.OUTCOME).read(Outcome.retry(), false);
        assertEquals(Outcome.retry(), ((HandlerResult.Handled) result).outcome());
    }

    @Test
    void nullIsAnAckForAVoidHandlerAndAFailureForAnOutcomeOne() {
        assertEquals(Outcome.ack(), ((HandlerResult.Handled) reading(SubscriberDefinition.ReturnKind.VOID)
                .read(null, false)).outcome());
        assertEquals(Outcome.ack(), ((HandlerResult.Handled) reading(SubscriberDefinition.ReturnKind.ASYNC_VOID)
                .read(null, true)).outcome());
        assertInstanceOf(HandlerResult.Failed.class, reading(SubscriberDefinition.ReturnKind.OUTCOME).read(null, false));
    }

    @Test
    void aThrowOrAValueOfAnotherTypeFailsAndADeadLetterOnTypeSaysSo() {
        ResultReading reading = reading(SubscriberDefinition.ReturnKind.OUTCOME);
        HandlerResult.Failed other = (HandlerResult.Failed) reading.read("not an outcome", false);
        assertFalse(other.deadLetterNow());
        HandlerResult.Failed thrown = (HandlerResult.Failed) reading
                .read(new HandlerInvocation.Failed(new NumberFormatException("bad")), false);
        assertTrue(thrown.deadLetterNow(), "a subtype of a deadLetterOn type");
    }
}
