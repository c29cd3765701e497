package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.UndecodablePayloadException;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.killswitch.KillSwitchCounting;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.OutputsBeforeAck;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/** The stages that carry out a verdict: OutputsBeforeAck, KillSwitchCounting, Reporting, Settling; no application. */
class VerdictStagesTest {

    private final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();
    private final List<Verdict> passed = new CopyOnWriteArrayList<>();
    private final VerdictStage recording = (delivery, verdict) -> passed.add(verdict);
    private final AtomicInteger released = new AtomicInteger();

    private static final Verdict ACKED = Verdict.ACKED;
    private static final Verdict FAILED = Verdict.thrown(new RuntimeException()).decided(Settlement.REQUEUE);

    @Test
    void settlingSendsTheSettlementAndFreesThePlaceOnce() {
        Settling settling = new Settling(settlements, released::incrementAndGet);
        InboundDelivery delivery = delivery(1);
        settling.pass(delivery, ACKED);
        settling.pass(delivery, FAILED);
        assertEquals(List.of("settle:1:ack", "settled again:1"), settlements.calls);
        assertEquals(1, released.get(), "a second verdict frees no place");
    }

    @Test
    void theKillSwitchCountsFailuresAndOutcomesButNotWhatNeverRanOrCouldNotBeDecoded() {
        List<String> counted = new CopyOnWriteArrayList<>();
        KillSwitchCounting counting = new KillSwitchCounting(() -> counted.add("failed"),
                () -> counted.add("succeeded"), recording);
        Verdict undecodable = Verdict.undecodable(new RuntimeException()).decided(Settlement.REJECT);
        for (Verdict verdict : List.of(FAILED, ACKED, Verdict.NOT_RUN, undecodable)) {
            counting.pass(delivery(1), verdict);
        }
        assertEquals(List.of("failed", "succeeded"), counted);
        assertEquals(4, passed.size(), "every verdict goes on");
    }

    @Test
    void reportingCountsEachOutcomeOnceAndNothingForADeliveryNeverRun() {
        OutcomeCounters outcomes = new OutcomeCounters();
        Reporting reporting = new Reporting(new DeliveryReporter("org.acme.Handlers#handle",
                SubscriptionSpec.builder("q").build(), outcomes), "java.lang.String", recording);
        reporting.pass(delivery(1), ACKED);
        reporting.pass(delivery(2), FAILED);
        reporting.pass(delivery(3), Verdict.undecodable(new UndecodablePayloadException("not a string", null))
                .decided(Settlement.REJECT));
        reporting.pass(delivery(4), Verdict.NOT_RUN);
        assertEquals(Map.of("ack", 1L, "failure", 1L, "undecodable", 1L), nonZero(outcomes.snapshot().get("q")));
        assertEquals(4, passed.size());
    }

    @Test
    void anAckWithOutputsGoesOnOnlyOnceTheyAreConfirmed() {
        InboundDelivery delivery = withOutputs(1);
        outputsStage().pass(delivery, ACKED);
        assertEquals(List.of("publish outputs:1:2"), settlements.calls);
        assertEquals(List.of(), passed, "not acked before its outputs are confirmed");
        settlements.outputsAnswer.complete(PublishAnswer.CONFIRMED);
        assertEquals(List.of(ACKED), passed);
    }

    @Test
    void anOutputThatReachesNoQueueMakesTheDeliveryAFailureDecidedAgain() {
        InboundDelivery delivery = withOutputs(1);
        outputsStage().pass(delivery, ACKED);
        settlements.outputsAnswer.complete(new PublishAnswer(PublishAnswer.Kind.RETURNED,
                "queue 'nowhere' does not exist", null));
        Verdict failed = passed.get(0);
        assertTrue(failed.isFailed());
        assertEquals(OutputNotPublishedException.class.getName(),
                failed.failure().type());
        assertSame(Settlement.REQUEUE, failed.settlement(), "a first delivery's failure on a classic queue: requeued");
    }

    @Test
    void outputsWhoseChannelWentAwayLeaveTheDeliveryToTheBrokerOrRequeueIt() {
        outputsStage().pass(withOutputs(1), ACKED);
        settlements.outputsAnswer.complete(new PublishAnswer(PublishAnswer.Kind.GONE, "gone", null));
        outputsStage().pass(withOutputs(2), ACKED);
        settlements.outputsAnswer.complete(new PublishAnswer(PublishAnswer.Kind.CUT,
                "the outputs' channel closed", null));
        assertEquals(List.of("publish outputs:1:2", "abandoned:1", "publish outputs:2:2", "requeue after pause:2"),
                settlements.calls);
        assertEquals(2, released.get());
        assertEquals(List.of(), passed);
    }

    @Test
    void outputsAreClosedWhateverTheVerdictAndPublishedOnlyWithAnAck() {
        InboundDelivery delivery = withOutputs(1);
        outputsStage().pass(delivery, FAILED);
        assertEquals(List.of(FAILED), passed);
        assertEquals(List.of(), settlements.calls, "nothing published for a failure");
        assertThrows(IllegalStateException.class, () -> outputsOf(delivery).send("late", "x"),
                "the handler's outputs are closed");
    }

    private OutputsBeforeAck outputsStage() {
        SubscriberDefinition definition = StageFixtures.definition(SubscriptionSpec.builder("q").build(),
                SubscriberDefinition.ExecutionModel.EVENT_LOOP, 1, (instance, arguments) -> null);
        return new OutputsBeforeAck(settlements, new ResultReading(definition),
                released::incrementAndGet, recording);
    }

    private final Map<InboundDelivery, HeldOutputs> outputs = new java.util.IdentityHashMap<>();

    private InboundDelivery withOutputs(long tag) {
        InboundDelivery delivery = delivery(tag);
        HeldOutputs held = new HeldOutputs(new PayloadEncoder(new ObjectMapper()), null, null, "message " + tag);
        delivery.outputs(held);
        held.send("first", "one");
        held.send("second", "two");
        outputs.put(delivery, held);
        return delivery;
    }

    private HeldOutputs outputsOf(InboundDelivery delivery) {
        return outputs.get(delivery);
    }

    private static Map<String, Long> nonZero(Map<String, Long> counts) {
        Map<String, Long> nonZero = new java.util.TreeMap<>();
        counts.forEach((outcome, count) -> {
            if (count > 0) {
                nonZero.put(outcome, count);
            }
        });
        return nonZero;
    }
}
