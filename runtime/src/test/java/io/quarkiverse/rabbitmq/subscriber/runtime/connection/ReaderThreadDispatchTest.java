package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/**
 * Consumer callbacks run on the connection's reader thread, in both of amqp-client's I/O modes, and a callback that
 * throws costs its own channel only: the channel is closed (its message requeued) without the reader thread waiting
 * for its own close-ok, so the connection's other channels go on. Real broker.
 */
class ReaderThreadDispatchTest {

    private static final AMQP.BasicProperties PLAIN = new AMQP.BasicProperties.Builder().build();

    /** Without a close off the reader thread, this test hangs there: fail instead. */
    @org.junit.jupiter.api.Timeout(60)
    @ParameterizedTest(name = "nio={0}")
    @ValueSource(booleans = { true, false })
    void deliveriesRunOnTheReaderThreadAndAThrowingConsumerCostsOnlyItsChannel(boolean nio) throws Exception {
        String queue = "reader-thread-" + UUID.randomUUID();
        BrokerConnection connection = BrokerConnector.connect(BrokerAddress.resolve(Optional.of("amqp://guest:guest@127.0.0.1:5672"), null),
                "reader-thread-test", nio);
        try {
            BrokerChannel setup = connection.createChannel();
            setup.declareQueue(queue, false, false, false, Map.of());

            // A consumer that throws at its first delivery.
            BrokerChannel failing = connection.createChannel();
            BlockingQueue<String> failingThreads = new ArrayBlockingQueue<>(10);
            failing.consume(queue, (tag, envelope, properties, body) -> {
                failingThreads.add(Thread.currentThread().getName());
                throw new IllegalStateException("boom");
            });
            setup.publish("", queue, false, PLAIN, "first".getBytes(StandardCharsets.UTF_8));
            String thread = failingThreads.poll(10, TimeUnit.SECONDS);
            assertTrue(thread != null && thread.startsWith(nio ? "rabbitmq-nio" : "AMQP Connection"),
                    "the callback ran on " + thread);
            Awaitility.await("the failing consumer's channel closes").atMost(Duration.ofSeconds(10))
                    .until(() -> !failing.isOpen());

            // The same connection still reads: another channel gets the requeued message.
            BrokerChannel other = connection.createChannel();
            BlockingQueue<String> received = new ArrayBlockingQueue<>(10);
            other.consume(queue, (tag, envelope, properties, body) -> {
                received.add(new String(body, StandardCharsets.UTF_8) + " redelivered=" + envelope.isRedeliver());
                try {
                    other.ack(envelope.getDeliveryTag(), false);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals("first redelivered=true", received.poll(10, TimeUnit.SECONDS));
            assertTrue(connection.isOpen());
            assertFalse(failing.isOpen());
        } finally {
            try (BrokerChannel cleanup = connection.createChannel()) {
                cleanup.deleteQueue(queue);
            } finally {
                connection.close();
            }
        }
    }
}
