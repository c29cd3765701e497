package io.quarkiverse.rabbitmq.subscriber.runtime.inbox;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.HeldOutputs;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Output;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.PublishAnswer;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settlement;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Verdict;

/** The outbox's stage before the ack of an inbox handler's delivery; no application, no database. */
class OutboxBeforeAckTest {

    private static final Verdict ACKED = Verdict.ACKED;
    private static final Verdict FAILED = Verdict.thrown(new RuntimeException()).decided(Settlement.REQUEUE);

    private final StageFixtures.RecordingSettlements settlements = new StageFixtures.RecordingSettlements();
    private final List<Verdict> passed = new CopyOnWriteArrayList<>();
    private final List<String> deleted = new CopyOnWriteArrayList<>();
    private final AtomicInteger released = new AtomicInteger();
    private final OutboxBeforeAck stage = new OutboxBeforeAck(settlements, released::incrementAndGet,
            (delivery, verdict) -> passed.add(verdict));

    @Test
    void confirmedOutputsAreAckedAndTheirRowsHandedToTheDeletes() {
        InboundDelivery delivery = committed(1);
        stage.pass(delivery, ACKED);
        assertEquals(List.of("publish outputs:1:2"), settlements.calls);
        assertEquals(List.of(), passed, "not acked before its outputs are confirmed");
        settlements.outputsAnswer.complete(PublishAnswer.CONFIRMED);
        assertEquals(List.of("group-1"), deleted);
        assertEquals(List.of(ACKED), passed);
    }

    @Test
    void outputsThatCannotLeaveNowStayForTheRelayAndTheCommittedDeliveryIsAcked() {
        for (PublishAnswer.Kind kind : List.of(PublishAnswer.Kind.RETURNED, PublishAnswer.Kind.NACKED,
                PublishAnswer.Kind.TIMED_OUT, PublishAnswer.Kind.CUT)) {
            stage.pass(committed(1), ACKED);
            settlements.outputsAnswer.complete(new PublishAnswer(kind, "queue 'nowhere' does not exist", null));
        }
        assertEquals(List.of(), deleted, "the rows stay");
        assertEquals(List.of(ACKED, ACKED, ACKED, ACKED), passed, "acked: a retry would only be a duplicate");
    }

    @Test
    void aDeliveryGoneWithItsChannelIsLeftToTheBrokerAndItsRowsToTheRelay() {
        stage.pass(committed(1), ACKED);
        settlements.outputsAnswer.complete(new PublishAnswer(PublishAnswer.Kind.GONE, "gone", null));
        assertEquals(List.of("publish outputs:1:2", "abandoned:1"), settlements.calls);
        assertEquals(List.of(), deleted);
        assertEquals(1, released.get());
        assertEquals(List.of(), passed);
    }

    @Test
    void withoutAnAckOrACommittedGroupNothingIsPublishedAndTheOutputsAreClosed() {
        InboundDelivery failed = withOutputs(1);
        stage.pass(failed, FAILED);
        InboundDelivery nothingSent = delivery(2);
        stage.pass(nothingSent, ACKED);
        assertEquals(List.of(FAILED, ACKED), passed);
        assertEquals(List.of(), settlements.calls);
        assertThrows(IllegalStateException.class, () -> held.send("late", "x"), "the handler's outputs are closed");
    }

    private HeldOutputs held;

    private InboundDelivery withOutputs(long tag) {
        InboundDelivery delivery = delivery(tag);
        held = new HeldOutputs(new PayloadEncoder(new ObjectMapper()), null, null, "message " + tag);
        delivery.outputs(held);
        held.send("first", "one");
        held.send("second", "two");
        return delivery;
    }

    /** As the inbox's transaction leaves an acked delivery: its outputs taken and committed as a group. */
    private InboundDelivery committed(long tag) {
        InboundDelivery delivery = withOutputs(tag);
        delivery.committedOutputs(new OutboxGroup(new DeletingInbox(), "group-" + tag, delivery.takeOutputs()));
        return delivery;
    }

    private final class DeletingInbox implements Inbox {
        @Override
        public Object run(String consumer, InboundDelivery delivery, Function<InboundDelivery, Object> handling,
                Predicate<Object> acks) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Object runBatch(String consumer, List<InboundDelivery> items,
                java.util.function.Consumer<InboundDelivery> duplicate,
                Function<List<InboundDelivery>, Handled> handling) {
            throw new UnsupportedOperationException();
        }

        @Override
        public String toOutbox(List<Output> outputs) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int connections() {
            return 0;
        }

        @Override
        public void published(String group) {
            deleted.add(group);
        }
    }
}
