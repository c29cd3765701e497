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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;

/**
 * Consumer callbacks run on the connection's reader thread, in both of amqp-client's I/O modes. A delivery handler that
 * throws is told so, on that thread, and its channel is left to it (the subscriber subscribes again on a fresh one);
 * amqp-client's other callbacks have their channel closed from another thread, never waiting on the reader for its
 * own close-ok. Real broker.
 */
class ReaderThreadDispatchTest {

    private static final AMQP.BasicProperties PLAIN = new AMQP.BasicProperties.Builder().build();

    /** Without a close off the reader thread, this test hangs there: fail instead. */
    @org.junit.jupiter.api.Timeout(60)
    @ParameterizedTest(name = "nio={0}")
    @ValueSource(booleans = { true, false })
    void deliveriesRunOnTheReaderThreadAndAThrowingConsumerCostsOnlyItsChannel(boolean nio) throws Exception {
        String queue = "reader-thread-" + UUID.randomUUID();
        BrokerConnection connection = BrokerConnector.connect(
                BrokerAddress.resolve(Optional.of("amqp://guest:guest@127.0.0.1:5672"), null),
                "reader-thread-test", nio);
        try {
            BrokerChannel setup = connection.createChannel();
            setup.declareQueue(queue, false, false, false, Map.of());

            // A consumer that throws at its first delivery: the failure comes back to it, on the reader thread, and
            // its channel stays as it was (amqp-client would have closed it, with nothing to subscribe again).
            BrokerChannel failing = connection.createChannel();
            BlockingQueue<String> failures = new ArrayBlockingQueue<>(10);
            failing.consume(queue, new io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler() {
                @Override
                public void delivered(String tag, com.rabbitmq.client.Envelope envelope, AMQP.BasicProperties properties,
                        byte[] body) {
                    throw new IllegalStateException("boom");
                }

                @Override
                public void failed(Throwable cause) {
                    failures.add(Thread.currentThread().getName() + " " + cause.getMessage());
                }
            });
            setup.publish("", queue, false, PLAIN, "first".getBytes(StandardCharsets.UTF_8));
            String failure = failures.poll(10, TimeUnit.SECONDS);
            assertTrue(failure != null && failure.startsWith(nio ? "rabbitmq-nio" : "AMQP Connection")
                    && failure.endsWith(" boom"), "the failure was reported as " + failure);
            assertTrue(failing.isOpen(), "the failing consumer's channel is left to its subscriber");

            // Closing it (as a subscriber's resubscription does) gives the message back; the connection still reads.
            failing.close();
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
            try (BrokerChannel cleanup = connection.createChannel()) {
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
        new RecoveryAttemptLogger(1024).handleConsumerException(channel, new IllegalStateException("boom"), null, "tag-1",
                "handleCancel");
        assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(5), "the caller did not wait for the close");
        String closer = closedOn.poll(10, TimeUnit.SECONDS);
        assertTrue(closer != null && !closer.equals(caller), "closed on " + closer);
        release.countDown();
    }
}
