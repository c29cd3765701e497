package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.AdminChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * Consumer callbacks run on the connection's reader thread, in both of amqp-client's I/O modes (a delivery handler
 * must not throw there: the subscribers' consumer reports its own failures, see SubscriberConsumerTest); a channel
 * closed with deliveries unsettled gives them back and the connection goes on reading. Real broker.
 */
@Tag("wire")
class ReaderThreadDispatchTest {

    /** The broker under test; skipped, saying why, where none answers. */
    @RegisterExtension
    static final WireBroker broker = WireBroker.queues();

    private static final AMQP.BasicProperties PLAIN = new AMQP.BasicProperties.Builder().build();

    /** Without a close off the reader thread, this test hangs there: fail instead. */
    @org.junit.jupiter.api.Timeout(60)
    @ParameterizedTest(name = "nio={0}")
    @ValueSource(booleans = { true, false })
    void deliveriesRunOnTheReaderThread(boolean nio) throws Exception {
        String queue = "reader-thread-" + UUID.randomUUID();
        BrokerConnection connection = BrokerConnector.connect(
                BrokerAddress.resolve(Optional.of(WireBroker.URL), null),
                "reader-thread-test", nio);
        try {
            BrokerChannel setup = connection.createChannel();
            setup.declareQueue(queue, false, false, false, Map.of());

            // Deliveries are handed over on the thread that read them (see ReaderThreadDispatch).
            BlockingQueue<String> threads = new ArrayBlockingQueue<>(10);
            BrokerChannel first = connection.createChannel();
            first.consume(queue, (tag, envelope, properties, body) -> threads.add(Thread.currentThread().getName()));
            setup.publish("", queue, false, PLAIN, "first".getBytes(StandardCharsets.UTF_8));
            String thread = threads.poll(10, TimeUnit.SECONDS);
            assertTrue(thread != null && thread.startsWith(nio ? "rabbitmq-nio" : "AMQP Connection"),
                    "delivered on " + thread);

            // Closing the channel unsettled (as a subscriber's resubscription does) gives the message back; the
            // connection still reads.
            first.close();
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
            other.close();
            setup.close();
        } finally {
            try (AdminChannel cleanup = AdminChannel.of(connection.createChannel())) {
                cleanup.deleteQueue(queue);
            } finally {
                connection.close();
            }
        }
    }

    /** amqp-client's other callbacks: a failure closes the channel from another thread, and nothing escapes. */
    @org.junit.jupiter.api.Test
    void aFailedCallbackClosesItsChannelWithoutWaitingOnTheCallersThread() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        BlockingQueue<String> closedOn = new ArrayBlockingQueue<>(1);
        com.rabbitmq.client.Channel channel = (com.rabbitmq.client.Channel) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] { com.rabbitmq.client.Channel.class }, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getChannelNumber":
                            return 7;
                        case "close":
                            closedOn.add(Thread.currentThread().getName());
                            // A close waits for the broker's close-ok, which only the reader thread would read.
                            release.await(30, TimeUnit.SECONDS);
                            return null;
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
        String caller = Thread.currentThread().getName();
        long started = System.nanoTime();
        new RecoveryAttemptLogger(1024, failure -> {
        }, unreadable -> {
        }).handleConsumerException(channel, new IllegalStateException("boom"), null, "tag-1",
                "handleCancel");
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "the caller did not wait for the close");
        String closer = closedOn.poll(10, TimeUnit.SECONDS);
        assertTrue(closer != null && !closer.equals(caller), "closed on " + closer);
        release.countDown();
    }
}
