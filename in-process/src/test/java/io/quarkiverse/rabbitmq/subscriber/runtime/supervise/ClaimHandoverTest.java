package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Envelope;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;

/**
 * A partition's claim ({@link Attachment#consumeWithPriority}) on a quorum queue with single active consumer (the
 * in-process broker in RabbitMQ 4.3's mode, which hands over as RabbitMQ does): the consumer of the higher priority gets
 * nothing while the old one holds unsettled messages, and the messages come back in order when the channel closes.
 * With the old one cancelled at the claim, the new one got the later messages at once: at a cut, RabbitMQ gave those
 * back before the earlier ones (the partitions proof on RabbitMQ 4.3.6).
 */
class ClaimHandoverTest {

    static final String QUEUE = "claim-handover";
    static final int PREFETCH = 4;

    final InProcessServer server = new InProcessServer(new VirtualClock(0), InProcessServer.Version.V4_3);
    final List<String> received = new CopyOnWriteArrayList<>();
    final List<Long> tags = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void theClaimTakesOverOnlyOnceTheOldConsumerSettledAndNothingComesBackOutOfOrder() throws Exception {
        BrokerChannel admin = server.connect().createChannel();
        admin.declareQueue(QUEUE, true, false, false, Map.of("x-queue-type", "quorum", "x-single-active-consumer", true));
        for (int i = 0; i < 12; i++) {
            admin.publish("", QUEUE, false, new AMQP.BasicProperties(), ("m" + i).getBytes(StandardCharsets.UTF_8));
        }
        BrokerChannel channel = server.connect().createChannel();
        channel.qos(PREFETCH);
        DeliveryHandler handler = recording();
        Attachment attachment = Attachment.of(channel, null, handler, () -> {
        }, channel.consume(QUEUE, handler, Map.of()), () -> PREFETCH, Map.of());
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 4);

        attachment.consumeWithPriority(QUEUE, 10);
        // The server runs its operations in turn: once this answers, a hand-over the claim caused has been delivered.
        admin.declareQueuePassive(QUEUE);
        assertEquals(List.of("m0", "m1", "m2", "m3"), received, "the claim's consumer got messages while m0-m3 were held");

        // Settling what the old consumer holds hands over: the claim's consumer takes the next ones.
        channel.ack(tags.get(3), true);
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 8);
        assertEquals(List.of("m4", "m5", "m6", "m7"), received.subList(4, 8));

        // A close (a cut) gives back what is held, in order, to the next consumer.
        channel.close();
        received.clear();
        BrokerChannel next = server.connect().createChannel();
        next.qos(PREFETCH);
        next.consume(QUEUE, recording(), Map.of());
        await().atMost(Duration.ofSeconds(5)).until(() -> received.size() == 4);
        assertEquals(List.of("m4", "m5", "m6", "m7"), received);
        next.close();
        admin.close();
    }

    @Test
    void cancellingCancelsEveryConsumerTheClaimsLeft() throws Exception {
        BrokerChannel admin = server.connect().createChannel();
        admin.declareQueue(QUEUE, true, false, false, Map.of("x-queue-type", "quorum", "x-single-active-consumer", true));
        BrokerChannel channel = server.connect().createChannel();
        channel.qos(PREFETCH);
        DeliveryHandler handler = recording();
        Attachment attachment = Attachment.of(channel, null, handler, () -> {
        }, channel.consume(QUEUE, handler, Map.of()), () -> PREFETCH, Map.of());
        attachment.consumeWithPriority(QUEUE, 10);
        attachment.consumeWithPriority(QUEUE, 20);
        assertEquals(3, admin.declareQueuePassive(QUEUE).consumerCount());

        attachment.cancel();
        assertEquals(0, admin.declareQueuePassive(QUEUE).consumerCount());
        channel.close();
        admin.close();
    }

    private DeliveryHandler recording() {
        return new DeliveryHandler() {
            @Override
            public void delivered(String consumerTag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                tags.add(envelope.getDeliveryTag());
                received.add(new String(body, StandardCharsets.UTF_8));
            }

            @Override
            public void cancelled() {
            }
        };
    }
}
