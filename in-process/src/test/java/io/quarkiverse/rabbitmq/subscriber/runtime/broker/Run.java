package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import com.rabbitmq.client.AMQP;

/** One scenario on one target: its own names, channel, transcript, and the clean-up of what it declared. */
final class Run implements AutoCloseable {

    final Target target;
    final String prefix = "conf." + UUID.randomUUID().toString().substring(0, 8) + ".";
    final Transcript transcript = new Transcript(prefix);
    final BrokerConnection connection;
    final AdminChannel channel;
    private final List<String> queues = new ArrayList<>();
    private final List<String> exchanges = new ArrayList<>();

    Run(Target target) throws Exception {
        this.target = target;
        this.connection = target.connect();
        this.channel = createChannel();
    }

    /** A channel of its own, with the admin methods (basic.get, delete, unbind) scenarios use. */
    AdminChannel createChannel() throws Exception {
        return AdminChannel.of(connection.createChannel());
    }

    String queue(String name) {
        queues.add(prefix + name);
        return prefix + name;
    }

    String exchange(String name) {
        exchanges.add(prefix + name);
        return prefix + name;
    }

    void note(String fact) {
        transcript.add(fact);
    }

    void declare(String queue, Map<String, Object> arguments) throws Exception {
        channel.declareQueue(queue, true, false, false, arguments);
    }

    /** A queue whose dead letters go through the default exchange to {@code target}. */
    void declareDeadLettering(String queue, String target, Map<String, Object> more) throws Exception {
        declare(target, Map.of());
        Map<String, Object> arguments = new java.util.HashMap<>(more);
        arguments.put("x-dead-letter-exchange", "");
        arguments.put("x-dead-letter-routing-key", target);
        declare(queue, arguments);
    }

    void publish(String queue, String body) throws Exception {
        publish("", queue, body, new AMQP.BasicProperties());
    }

    void publish(String exchange, String routingKey, String body, AMQP.BasicProperties properties) throws Exception {
        channel.publish(exchange, routingKey, false, properties, Transcript.utf8(body));
    }

    int depth(String queue) throws Exception {
        return channel.declareQueuePassive(queue).messageCount();
    }

    void elapse(java.time.Duration duration) {
        target.elapse(duration);
    }

    void awaitDepth(String queue, int depth) throws Exception {
        target.await(() -> depth(queue) == depth);
    }

    Fetched get(String queue) throws Exception {
        return channel.get(queue, true);
    }

    /** Gets every message of the queue into the transcript, once it holds {@code count}. */
    void drain(String label, String queue, int count) throws Exception {
        awaitDepth(queue, count);
        for (int i = 0; i < count; i++) {
            transcript.message(label, get(queue));
        }
    }

    /** Takes what the queue holds with basic.get, and notes the bodies, in order, on one line. */
    void noteBodies(String label, String queue) throws Exception {
        List<String> bodies = new ArrayList<>();
        for (Fetched fetched = get(queue); fetched != null; fetched = get(queue)) {
            bodies.add(new String(fetched.body(), java.nio.charset.StandardCharsets.UTF_8));
        }
        note(label + ": " + bodies);
    }

    /** Runs the method and notes the server's refusal (or that there was none). */
    void refusal(String label, ThrowingRunnable method) {
        try {
            method.run();
            note(label + ": accepted");
        } catch (BrokerException e) {
            note(label + ": " + e.replyCode() + " " + e.replyText());
        } catch (Exception e) {
            note(label + ": " + e);
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    /**
     * A consumer on a channel of its own; what it receives is recorded, and left unacked (or, in no-ack mode, settled
     * by the server as it sends it).
     */
    final class Consumer {
        final AdminChannel channel;
        final List<String> deliveries = new CopyOnWriteArrayList<>();
        final List<Long> tags = new CopyOnWriteArrayList<>();
        /** How many times the broker cancelled this consumer (basic.cancel from the server). */
        final java.util.concurrent.atomic.AtomicInteger cancellations = new java.util.concurrent.atomic.AtomicInteger();
        final String tag;

        Consumer(String queue, int prefetch, boolean autoAck) throws Exception {
            this(queue, prefetch, autoAck, Map.of());
        }

        Consumer(String queue, int prefetch, boolean autoAck, Map<String, Object> arguments) throws Exception {
            channel = createChannel();
            channel.qos(prefetch);
            DeliveryHandler handler = new DeliveryHandler() {
                @Override
                public void delivered(String consumerTag, com.rabbitmq.client.Envelope envelope,
                        AMQP.BasicProperties properties, byte[] body) {
                    tags.add(envelope.getDeliveryTag());
                    deliveries.add(Transcript.describe(envelope.getDeliveryTag(), envelope.isRedeliver(),
                            envelope.getExchange(), envelope.getRoutingKey(), properties, body));
                }

                @Override
                public void cancelled() {
                    cancellations.incrementAndGet();
                }
            };
            tag = autoAck ? channel.consumeAutoAck(queue, handler) : channel.consume(queue, handler, arguments);
        }

        void awaitCancelled() throws Exception {
            target.await(() -> cancellations.get() > 0);
        }

        void awaitDeliveries(int count) throws Exception {
            target.await(() -> deliveries.size() >= count);
        }

        void noteDeliveries(String label) {
            deliveries.forEach(delivery -> note(label + ": " + delivery));
        }
    }

    Consumer consumer(String queue, int prefetch) throws Exception {
        return new Consumer(queue, prefetch, false);
    }

    /** A consumer with arguments ({@code x-consumer-timeout}, {@code x-priority}). */
    Consumer consumer(String queue, int prefetch, Map<String, Object> arguments) throws Exception {
        return new Consumer(queue, prefetch, false, arguments);
    }

    /** A consumer in no-ack mode, the only one RabbitMQ allows on the direct reply-to pseudo-queue. */
    Consumer autoAckConsumer(String queue, int prefetch) throws Exception {
        return new Consumer(queue, prefetch, true);
    }

    /**
     * A publisher on a channel of its own in confirm mode. Once every publish is confirmed, each message is in every
     * queue it routes to, on either broker: scenarios can then look at queues without knowing what to expect.
     */
    final class Confirming {
        final BrokerChannel channel;
        /** Returned messages (and nacks), in the order they came. */
        final List<String> returns = new CopyOnWriteArrayList<>();
        private final java.util.Set<Long> confirmed = new java.util.concurrent.ConcurrentSkipListSet<>();
        private int published;

        Confirming() throws Exception {
            channel = connection.createChannel();
            channel.confirmSelect(new PublishListener() {
                @Override
                public void acked(long sequenceNumber, boolean multiple) {
                    for (long seq = multiple ? 1 : sequenceNumber; seq <= sequenceNumber; seq++) {
                        confirmed.add(seq);
                    }
                }

                @Override
                public void nacked(long sequenceNumber, boolean multiple) {
                    returns.add("nack " + sequenceNumber);
                }

                @Override
                public void returned(int replyCode, String replyText, String exchange, String routingKey,
                        AMQP.BasicProperties properties, byte[] body) {
                    returns.add("returned " + replyCode + " " + replyText + " exchange=" + exchange + " routingKey="
                            + routingKey + " body=" + new String(body, java.nio.charset.StandardCharsets.UTF_8));
                }
            });
        }

        void publish(String exchange, String routingKey, boolean mandatory, AMQP.BasicProperties properties,
                String body) throws Exception {
            channel.publish(exchange, routingKey, mandatory, properties, Transcript.utf8(body));
            published++;
        }

        /** Publishes with these headers (none when null), the body naming the message. */
        void publish(String exchange, String body, Map<String, Object> headers) throws Exception {
            publish(exchange, "", false, new AMQP.BasicProperties.Builder().headers(headers).build(), body);
        }

        /** Waits until every publish so far is confirmed; a return comes before its message's confirm. */
        void awaitConfirms() throws Exception {
            target.await(() -> confirmed.size() >= published);
        }
    }

    Confirming confirming() throws Exception {
        return new Confirming();
    }

    @Override
    public void close() throws Exception {
        try (AdminChannel cleanup = createChannel()) {
            for (String queue : queues) {
                cleanup.deleteQueue(queue);
            }
            for (String exchange : exchanges) {
                cleanup.deleteExchange(exchange);
            }
        } finally {
            connection.close();
        }
    }
}
