package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.quarkiverse.rabbitmq.subscriber.DeadLetter;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Provenance;

/**
 * Shows what waits in a queue without taking it. AMQP has no peek: the messages are taken with basic.get and never
 * acknowledged, on a channel of their own, whose close returns them to the queue in their order.
 */
final class DeadLetterPeek {

    private DeadLetterPeek() {
    }

    static List<DeadLetter> peek(BrokerConnection connection, String queue, int max, String retryCountHeader) {
        return peek(connection, queue, max, retryCountHeader, ignored -> 0);
    }

    /**
     * A dead letter's preview as its subscription's codec reads the body (a binary body's decoded text), or null for
     * its bytes.
     */
    @FunctionalInterface
    interface Readable {
        Readable BYTES = (sourceQueue, properties, body) -> null;

        String text(String sourceQueue, com.rabbitmq.client.AMQP.BasicProperties properties, byte[] body);
    }

    /** @param capOf the cap of the subscription consuming a queue (0: none), for a quorum queue's dead letters */
    static List<DeadLetter> peek(BrokerConnection connection, String queue, int max, String retryCountHeader,
            java.util.function.ToIntFunction<String> capOf) {
        return peek(connection, queue, max, retryCountHeader, capOf, Readable.BYTES);
    }

    /** @param readable a binary body's text, from its subscription's codec */
    static List<DeadLetter> peek(BrokerConnection connection, String queue, int max, String retryCountHeader,
            java.util.function.ToIntFunction<String> capOf, Readable readable) {
        if (max < 0) {
            throw new IllegalArgumentException("Cannot peek at " + max + " messages of queue '" + queue + "'");
        }
        List<DeadLetter> seen = new ArrayList<>();
        if (max == 0) {
            return seen;
        }
        BrokerChannel channel = null;
        try {
            channel = connection.createChannel();
            while (seen.size() < max) {
                Fetched fetched = channel.get(queue, false);
                if (fetched == null) {
                    break;
                }
                DeadLetter letter = DeadLetterReading.read(fetched.properties(), fetched.body(), retryCountHeader,
                        Provenance.of(connection.user()), capOf);
                String text = letter.sourceQueue() == null ? null
                        : readable.text(letter.sourceQueue(), fetched.properties(), fetched.body());
                seen.add(text == null ? letter
                        : new DeadLetter(letter.messageId(), letter.sourceQueue(), letter.headers(),
                                letter.exceptionType(), letter.exceptionMessage(), letter.reason(), letter.attempts(),
                                DeadLetterReading.preview(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                                letter.bodySize()));
            }
            return seen;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot peek at queue '" + queue + "': " + e.getMessage(), e);
        } finally {
            if (channel != null) {
                // Returns what it took, unacknowledged, to the queue.
                channel.close();
            }
        }
    }
}
