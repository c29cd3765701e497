package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.PublishOutcome;

/**
 * What a publish in flight makes of the broker's answer, without a channel: its group is answered once, with the first
 * thing that went wrong or with a confirm once every publish is confirmed, in words that name the publish. (Which
 * answer came, and when, is the confirm engine's: {@code ConfirmedChannelTest}; {@link ConfirmedCopyTest} runs copies and
 * outputs through
 * the settler.) Before the copy publisher answered with a {@code CompletionStage}, this class tested the callbacks of
 * {@code CopyInFlight} and {@code OutputInFlight}; what each answer means for a delivery is now its publisher's:
 * {@link ConfirmedCopyTest} for copies, {@code VerdictStagesTest} for outputs.
 */
class InFlightPublishTest {

    private static final Outgoing SHIPMENT = new Outgoing("", "shipments", true, new AMQP.BasicProperties(),
            new byte[0], "the output", "queue 'shipments'");

    private static PublishAnswer answerOf(boolean ownChannel, PublishOutcome outcome) {
        PublishGroup group = new PublishGroup(1);
        new GroupedPublish(group, SHIPMENT, ownChannel, "the outputs' channel", 5_000).accept(outcome);
        return group.answer().toCompletableFuture().getNow(null);
    }

    @Test
    void eachAnswerOfTheBrokerIsNamed() {
        assertSame(PublishAnswer.CONFIRMED, answerOf(true, PublishOutcome.CONFIRMED));
        assertEquals(new PublishAnswer(PublishAnswer.Kind.NACKED, "RabbitMQ nacked the output to queue 'shipments'",
                null), answerOf(true, PublishOutcome.NACKED));
        assertEquals(new PublishAnswer(PublishAnswer.Kind.RETURNED,
                "RabbitMQ returned the output to queue 'shipments' (NO_ROUTE): no queue took it", null),
                answerOf(true, new PublishOutcome(PublishOutcome.Kind.RETURNED, "NO_ROUTE", false)));
        assertEquals(new PublishAnswer(PublishAnswer.Kind.TIMED_OUT,
                "RabbitMQ did not confirm the output to queue 'shipments' within 5000 ms", null),
                answerOf(true, PublishOutcome.TIMED_OUT));
    }

    @Test
    void aClosedChannelIsACutOfItsOwnOrTheDeliverysGoneAndARefusalIsNamed() {
        PublishAnswer cut = answerOf(true, new PublishOutcome(PublishOutcome.Kind.CLOSED, "connection lost", false));
        assertEquals(new PublishAnswer(PublishAnswer.Kind.CUT,
                "the outputs' channel closed before RabbitMQ confirmed the output to queue 'shipments'", null), cut);
        assertTrue(cut.cutOnly());
        PublishAnswer gone = answerOf(false, new PublishOutcome(PublishOutcome.Kind.CLOSED, "connection lost", false));
        assertTrue(gone.gone());
        PublishAnswer refused = answerOf(true, new PublishOutcome(PublishOutcome.Kind.CLOSED, "PRECONDITION_FAILED", true));
        assertEquals(new PublishAnswer(PublishAnswer.Kind.CUT,
                "RabbitMQ refused the output to queue 'shipments' (PRECONDITION_FAILED)", "PRECONDITION_FAILED"), refused);
        assertFalse(refused.cutOnly(), "a refusal of what was published is a failure, not a cut");
        assertEquals("PRECONDITION_FAILED",
                answerOf(false, new PublishOutcome(PublishOutcome.Kind.CLOSED, "PRECONDITION_FAILED", true))
                        .refusal());
    }

    @Test
    void aGroupIsConfirmedWithItsLastAndEndsAtItsFirstFailure() {
        PublishGroup group = new PublishGroup(2);
        CompletableFuture<PublishAnswer> answer = group.answer().toCompletableFuture();
        group.confirmed();
        assertNull(answer.getNow(null), "one of two confirmed");
        group.confirmed();
        assertSame(PublishAnswer.CONFIRMED, answer.getNow(null));

        PublishGroup failing = new PublishGroup(2);
        failing.failed(PublishAnswer.Kind.NACKED, "first", null);
        failing.confirmed();
        failing.failed(PublishAnswer.Kind.TIMED_OUT, "second", null);
        assertEquals("first", failing.answer().toCompletableFuture().getNow(null).why(), "answered once");
    }

    @Test
    void anAnswerAlreadyThereIsActedOnAtOnceSoThatAFailureReachesTheCaller() {
        StringBuilder seen = new StringBuilder();
        PublishAnswer.whenAnswered(CompletableFuture.completedStage(PublishAnswer.CONFIRMED),
                answer -> seen.append(answer.kind()));
        assertEquals("CONFIRMED", seen.toString());
        CompletableFuture<PublishAnswer> later = new CompletableFuture<>();
        PublishAnswer.whenAnswered(later, answer -> seen.append(" then ").append(answer.kind()));
        assertEquals("CONFIRMED", seen.toString());
        later.complete(new PublishAnswer(PublishAnswer.Kind.GONE, "gone", null));
        assertEquals("CONFIRMED then GONE", seen.toString());
        org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> PublishAnswer.whenAnswered(CompletableFuture.completedStage(PublishAnswer.CONFIRMED), answer -> {
                    throw new IllegalStateException("acting failed");
                }));
    }
}
