package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.StreamReading;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SuperStream;

/**
 * The in-process broker's single active consumers: a stream's, and a super stream's per partition, as RabbitMQ's: of the
 * consumers of one name, in
 * the order they came, partition {@code i} is read by the one at {@code i} modulo their number; a consumer that leaves
 * hands its partitions to the others, which resume after the offsets stored under the name.
 */
class SuperStreamGroupTest {

    private final InProcessServer server = new InProcessServer(new VirtualClock(0), InProcessServer.Version.V4_3);

    /** What one consumer reads, as "partition@offset", and the partitions it is active on. */
    static final class Recorder implements StreamReading.Handler {
        final List<String> read = new CopyOnWriteArrayList<>();
        final Set<String> active = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public void message(String stream, long offset, AMQP.BasicProperties properties, byte[] body,
                String filterValue, Runnable processed) {
            read.add(stream + "@" + offset + "=" + new String(body, StandardCharsets.UTF_8));
            processed.run();
        }

        @Override
        public void activity(String partition, boolean active) {
            if (active) {
                this.active.add(partition);
            } else {
                this.active.remove(partition);
            }
        }
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void thePartitionsSpreadOverTheConsumersAndMoveWhenOneLeaves() throws Exception {
        BrokerChannel channel = server.connect().createChannel();
        channel.declareExchange("orders", SuperStream.EXCHANGE_TYPE, true, false, SuperStream.EXCHANGE_ARGUMENTS);
        for (int index = 0; index < 3; index++) {
            channel.declareQueue(SuperStream.partition("orders", index), true, false, false,
                    Map.of("x-queue-type", "stream"));
            channel.bindQueue(SuperStream.partition("orders", index), "orders", SuperStream.bindingKey(index),
                    Map.of(SuperStream.PARTITION_ORDER, index));
        }
        StreamReading.Start first = new StreamReading.Start(StreamReading.Start.Kind.FIRST, 0);
        Recorder one = new Recorder();
        Recorder two = new Recorder();
        StreamReading.Reader a = server.streams().readSuperStream("orders", "app", first, Set.of(), one);
        StreamReading.Reader b = server.streams().readSuperStream("orders", "app", first, Set.of(), two);
        server.awaitIdle(Duration.ofSeconds(5));
        assertEquals(Set.of("orders-0", "orders-2"), one.active, "the first consumer: partitions 0 and 2");
        assertEquals(Set.of("orders-1"), two.active, "the second: partition 1");

        for (int index = 0; index < 3; index++) {
            channel.publish("orders", SuperStream.bindingKey(index), false, new AMQP.BasicProperties(),
                    ("m" + index).getBytes(StandardCharsets.UTF_8));
        }
        server.awaitIdle(Duration.ofSeconds(5));
        assertEquals(new TreeSet<>(List.of("orders-0@0=m0", "orders-2@0=m2")), new TreeSet<>(one.read));
        assertEquals(List.of("orders-1@0=m1"), two.read);
        a.store("orders-0", 0);
        a.store("orders-2", 0);

        a.close();
        channel.publish("orders", "0", false, new AMQP.BasicProperties(), "n0".getBytes(StandardCharsets.UTF_8));
        server.awaitIdle(Duration.ofSeconds(5));
        assertEquals(Set.of("orders-0", "orders-1", "orders-2"), two.active, "the one left reads every partition");
        assertTrue(two.read.contains("orders-0@1=n0"), two.read::toString);
        assertTrue(two.read.stream().noneMatch(line -> line.startsWith("orders-0@0") || line.startsWith("orders-2@0")),
                "it resumed after the offsets the first stored: " + two.read);
        b.close();
    }

    @Test
    void aStreamReadAsItsSingleActiveConsumerIsReadByTheFirstThenTheNext() throws Exception {
        BrokerChannel channel = server.connect().createChannel();
        channel.declareQueue("events", true, false, false, Map.of("x-queue-type", "stream"));
        StreamReading.Start first = new StreamReading.Start(StreamReading.Start.Kind.FIRST, 0);
        Recorder one = new Recorder();
        Recorder two = new Recorder();
        StreamReading.Reader a = server.streams().read("events", "app", first, Set.of(), true, one);
        server.streams().read("events", "app", first, Set.of(), true, two);
        for (int i = 0; i < 3; i++) {
            channel.publish("", "events", false, new AMQP.BasicProperties(), ("e" + i).getBytes(StandardCharsets.UTF_8));
        }
        server.awaitIdle(Duration.ofSeconds(5));
        assertEquals(List.of("events@0=e0", "events@1=e1", "events@2=e2"), one.read, "the first reads the stream");
        assertEquals(List.of(), two.read, "the second stands by");
        assertEquals(Set.of(), two.active);
        a.store("events", 1);
        a.close();
        server.awaitIdle(Duration.ofSeconds(5));
        assertEquals(Set.of("events"), two.active);
        assertEquals(List.of("events@2=e2"), two.read, "the next resumes after the offset the first stored");
    }

    @Test
    void aSuperStreamThatDoesNotExistIsNamed() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> server.streams().readSuperStream("nowhere", "app",
                        new StreamReading.Start(StreamReading.Start.Kind.NEXT, 0), Set.of(), new Recorder()));
        assertTrue(refused.getMessage().contains("Super stream 'nowhere' does not exist"), refused.getMessage());
    }
}
