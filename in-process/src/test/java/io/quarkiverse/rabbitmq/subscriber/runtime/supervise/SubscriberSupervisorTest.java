package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor.State;

/**
 * The subscriber's states and what moves it between them, with a fake broker side: steps run at once on the caller
 * (a direct pool), and the back-off waits on a virtual clock (1 s doubling, no jitter).
 */
class SubscriberSupervisorTest {

    final VirtualClock clock = new VirtualClock(0);
    final FakeBroker broker = new FakeBroker();
    final SubscriberSupervisor supervisor = new SubscriberSupervisor("Handler#handle", "orders", broker,
            new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0), clock, Runnable::run);

    @Test
    void startsConsuming() throws Exception {
        assertEquals(State.STARTING, supervisor.state());
        assertEquals("starting", supervisor.notConsumingBecause());
        supervisor.start(null);
        assertEquals(State.CONSUMING, supervisor.state());
        assertNull(supervisor.notConsumingBecause());
        assertEquals(1, broker.attached.size());
    }

    @Test
    void aCancelledConsumerSubscribesAgainOnAFreshChannelAfterTheBackOff() throws Exception {
        supervisor.start(null);
        supervisor.lost(1, "the broker cancelled its consumer");
        assertEquals(State.RECOVERING, supervisor.state());
        assertEquals("the broker cancelled its consumer", supervisor.notConsumingBecause());
        advance(999);
        assertEquals(1, broker.attached.size(), "waits the back-off");
        advance(1);
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(2, broker.attached.size());
        assertTrue(broker.attached.get(0).closed, "the old channel is closed");
        assertEquals(1, broker.consumingAgain);
    }

    @Test
    void aLossReportedByAnEarlierChannelIsOldNews() throws Exception {
        supervisor.start(null);
        supervisor.lost(1, "cancelled");
        advance(1000);
        supervisor.lost(1, "the old channel closed");
        assertEquals(State.CONSUMING, supervisor.state());
        advance(60_000);
        assertEquals(2, broker.attached.size());
    }

    @Test
    void failedAttemptsBackOffExponentiallyAndStopAtTheFirstSuccess() throws Exception {
        supervisor.start(null);
        broker.failures = 3;
        supervisor.lost(1, "cancelled");
        advance(1000); // attempt 1 fails; next in 2 s
        assertEquals(State.RECOVERING, supervisor.state());
        assertTrue(supervisor.notConsumingBecause().startsWith("subscribing again failed: no queue"),
                supervisor.notConsumingBecause());
        advance(1999);
        assertEquals(2, broker.attempts);
        advance(1); // attempt 2 fails; next in 4 s
        assertEquals(3, broker.attempts);
        advance(4000); // attempt 3 fails; next in 8 s
        assertEquals(4, broker.attempts);
        advance(8000);
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(5, broker.attempts);
        advance(120_000);
        assertEquals(5, broker.attempts, "no attempt after the success");
    }

    @Test
    void aCutConsumesAgainOnTheRecoveredChannel() throws Exception {
        supervisor.start(null);
        supervisor.connectionLost("connection reset");
        assertEquals(State.RECOVERING, supervisor.state());
        assertEquals("the connection is down (connection reset)", supervisor.notConsumingBecause());
        supervisor.connectionRecovered();
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(1, broker.attached.size(), "same channel");
        assertEquals(1, broker.attached.get(0).consumedAgain);
        assertEquals(1, broker.prepared, "the queues are declared again");
        assertEquals(1, broker.attached.get(0).connectionsLost, "the attachment heard of the cut (a partition's stops)");
    }

    @Test
    void aRecoveryConsumesAgainEvenWhenTheCutWasNotReportedFirst() throws Exception {
        // The client's recovery listener may be heard before its shutdown listener's step ran: the recovered channel
        // has no consumer either way.
        supervisor.start(null);
        supervisor.connectionRecovered();
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(1, broker.attached.get(0).consumedAgain);
        supervisor.connectionLost("reset");
        assertEquals(State.RECOVERING, supervisor.state());
        supervisor.connectionRecovered();
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(2, broker.attached.get(0).consumedAgain);
    }

    @Test
    void aRecoveredChannelThatCannotConsumeIsReplaced() throws Exception {
        supervisor.start(null);
        broker.attached.get(0).failConsumeAgain = true;
        supervisor.connectionLost("reset");
        supervisor.connectionRecovered();
        assertEquals(State.RECOVERING, supervisor.state());
        advance(1000);
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(2, broker.attached.size());
    }

    @Test
    void theConnectionComingBackTriesAWaitingResubscriptionAtOnce() throws Exception {
        supervisor.start(null);
        supervisor.lost(1, "cancelled");
        supervisor.connectionLost("reset");
        supervisor.connectionRecovered();
        assertEquals(State.CONSUMING, supervisor.state());
        assertEquals(2, broker.attached.size());
        advance(60_000);
        assertEquals(2, broker.attached.size(), "the scheduled attempt is moot");
    }

    @Test
    void aCopyTheBrokerRefusesAsInvalidWaitsLongerAtEachRefusalInARow() throws Exception {
        // Refused again at every try (a property RabbitMQ rejects on a copy): without a growing wait, each try ran the
        // handler again on the redelivered message, once a second for ever.
        supervisor.start(null);
        String refusal = "the broker closed the channel of its copies: PRECONDITION_FAILED - user_id property set "
                + "to 'guest' but authenticated user was 'app'";
        long[] waits = { 1000, 2000, 4000, 8000, 16000, 30000, 30000 };
        for (int i = 0; i < waits.length; i++) {
            supervisor.lost(i + 1, refusal);
            advance(waits[i] - 1);
            assertEquals(i + 1, broker.attached.size(), "refusal " + (i + 1) + " waits " + waits[i] + " ms");
            advance(1);
            assertEquals(i + 2, broker.attached.size());
        }
    }

    @Test
    void aStopEndsRecovery() throws Exception {
        supervisor.start(null);
        supervisor.lost(1, "cancelled");
        supervisor.stopTaking();
        assertEquals(State.STOPPED, supervisor.state());
        assertEquals("stopped", supervisor.notConsumingBecause());
        advance(60_000);
        supervisor.connectionRecovered();
        assertEquals(1, broker.attached.size());
        assertEquals(State.STOPPED, supervisor.state());
    }

    @Test
    void stopCancelsThenCloseCloses() throws Exception {
        supervisor.start(null);
        supervisor.stopTaking();
        assertTrue(broker.attached.get(0).cancelled);
        supervisor.close();
        assertTrue(broker.attached.get(0).closed);
    }

    private void advance(long millis) {
        clock.advance(Duration.ofMillis(millis), () -> {
        });
    }

    static final class FakeAttachment implements Attachment {
        final List<Integer> priorities = new ArrayList<>();
        int consumedAgain;
        int paused;
        boolean cancelled;
        boolean stoppedTaking;
        int connectionsLost;
        boolean closed;
        boolean failConsumeAgain;

        @Override
        public void consumeAgain(String queue) throws Exception {
            if (failConsumeAgain) {
                throw new java.io.IOException("channel is closed");
            }
            consumedAgain++;
        }

        @Override
        public void consumeWithPriority(String queue, int priority) {
            priorities.add(priority);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        @Override
        public void stopTaking() {
            stoppedTaking = true;
        }

        @Override
        public void connectionLost() {
            connectionsLost++;
        }

        @Override
        public void pause() {
            paused++;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static final class FakeBroker implements Subscribing {
        final List<FakeAttachment> attached = new ArrayList<>();
        int failures;
        int attempts;
        int prepared;
        int consumingAgain;

        @Override
        public BrokerConnection connection() {
            return null;
        }

        @Override
        public void prepareQueues(BrokerConnection connection) throws Exception {
            prepared++;
        }

        @Override
        public Attachment attach(BrokerConnection connection, SubscriberSupervisor supervisor, long generation)
                throws Exception {
            attempts++;
            if (failures > 0) {
                failures--;
                throw new java.io.IOException("no queue");
            }
            FakeAttachment attachment = new FakeAttachment();
            attached.add(attachment);
            return attachment;
        }

        @Override
        public void consumingAgain() {
            consumingAgain++;
        }
    }
}
