package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.clock.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.InboundDelivery;

/**
 * What each kind of publish in flight makes of the broker's answer, without a channel: a copy settles its original, an
 * output its group. (Which answer came, and when, is {@link UnansweredPublishes}'; {@link ConfirmedCopyTest} runs both
 * through the settler.)
 */
class InFlightPublishTest {

    private final List<String> said = new CopyOnWriteArrayList<>();
    private final InboundDelivery original = new InboundDelivery("work", new Envelope(7, false, "", "work"),
            new AMQP.BasicProperties.Builder().messageId("m-7").build(), new byte[0], "x-retry-count");

    private final CopyPublisher.CopyResult outcomes = new CopyPublisher.CopyResult() {
        @Override
        public void confirmed(Unsettled delivery) {
            said.add("confirmed");
        }

        @Override
        public void refused(Unsettled delivery) {
            said.add("refused");
        }

        @Override
        public void abandoned(Unsettled delivery) {
            said.add("abandoned");
        }

        @Override
        public void refusedForWhatItIs(Unsettled delivery, String reason) {
            said.add("refused for what it is");
        }
    };

    private InFlightPublish copy(boolean ownChannel) {
        return new CopyInFlight(original, "work", ownChannel, outcomes, new MissingQueues(new VirtualClock(0)),
                Duration.ofSeconds(1));
    }

    private InFlightPublish output(boolean ownChannel) {
        OutputGroup group = new OutputGroup(1, new OutputsResult() {
            @Override
            public void confirmed() {
                said.add("confirmed");
            }

            @Override
            public void failed(String why) {
                said.add("failed: " + why);
            }

            @Override
            public void abandoned() {
                said.add("abandoned");
            }

            @Override
            public void requeue(String why) {
                said.add("requeue: " + why);
            }
        });
        return new OutputInFlight(group, "queue 'shipments'", ownChannel);
    }

    @Test
    void aCopysOriginalIsAckedOnAConfirmAndRequeuedOnAnyOtherAnswer() {
        copy(true).confirmed();
        copy(true).nacked();
        copy(true).returned("NO_ROUTE");
        copy(true).timedOut(5_000);
        assertEquals(List.of("confirmed", "refused", "refused", "refused"), said);
    }

    @Test
    void whenItsChannelClosesTheOriginalIsRequeuedOrLeftToTheBrokerWithTheDeliverysChannel() {
        copy(true).closed(false, "connection lost");
        copy(false).closed(false, "connection lost");
        copy(true).closed(true, "PRECONDITION_FAILED");
        assertEquals(List.of("refused", "abandoned", "refused for what it is", "refused"), said);
    }

    @Test
    void anOutputFailsItsDeliveryOnAnyAnswerButAConfirmAndACut() {
        output(true).confirmed();
        output(true).nacked();
        output(true).returned("NO_ROUTE");
        output(true).timedOut(5_000);
        output(true).closed(true, "PRECONDITION_FAILED");
        output(true).closed(false, "connection lost");
        output(false).closed(false, "connection lost");
        assertEquals(List.of("confirmed", "failed: RabbitMQ nacked the output to queue 'shipments'",
                "failed: RabbitMQ returned the output to queue 'shipments' (NO_ROUTE): no queue took it",
                "failed: RabbitMQ did not confirm the output to queue 'shipments' within 5000 ms",
                "failed: RabbitMQ refused the output to queue 'shipments' (PRECONDITION_FAILED)",
                "requeue: the outputs' channel closed before RabbitMQ confirmed the output to queue 'shipments'",
                "abandoned"), said);
    }
}
