package io.quarkiverse.rabbitmq.subscriber.runtime.spread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.Attachment;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.ReopeningAttachment;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.SubscriberSupervisor;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.Subscribing;

/**
 * Issue 40's proof on the in-process broker: three instances of a service share one partitioned subscription (16
 * quorum partitions of a consistent-hash exchange, single active consumer) in one JVM, on the virtual clock, with the
 * runtime's own spreading ({@link PartitionSpreader}, {@link SubscriberSupervisor}, {@link ReopeningAttachment}) and
 * a handler that takes a virtual millisecond per message. 30,000 entries over 1,000 keys; the busiest instance is killed
 * (its connection cut, no last beat) mid-run and a fourth starts later; every key's numbers must be handled in order,
 * none missing. What would take minutes on a cluster passes in seconds: the beats, the liveness window and the
 * handling all run on the clock.
 * <p>
 * An instance here is the runtime's partition machinery with a plain handler, not a whole Quarkus application: an
 * application boots its in-process broker of its own (one per class loader), so three applications cannot share one.
 * The delivery chain's part of the guarantee (retries in place, caps) is {@code PartitionScenarios}', in process and on
 * RabbitMQ; the packaged applications on the clusters are {@code integration-tests/bench/partitions.sh}'s.
 */
class ThreeInstancesInProcessTest {

    static final int PARTITIONS = 16;
    static final int KEYS = 1000;
    static final int PER_KEY = 30;
    static final int PREFETCH = 20;
    static final Duration HANDLING = Duration.ofMillis(1);
    static final String SUBSCRIPTION = "ledger";

    final VirtualClock clock = new VirtualClock(0);
    final InProcessServer server = new InProcessServer(clock, InProcessServer.Version.V4_3);
    final Ledger ledger = new Ledger();
    final List<Instance> instances = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        instances.forEach(Instance::crash);
        server.stop();
    }

    @Test
    void orderPerKeyHoldsWhileInstancesComeAndGo() throws Exception {
        declareTopology();
        BrokerChannel publisher = server.connect().createChannel();
        Instance a = start("instance-a");
        Instance b = start("instance-b");
        Instance c = start("instance-c");

        // The first instance to consume is active everywhere until the claims, after the 6 s of listening.
        publish(publisher, 0, 10);
        advance(Duration.ofSeconds(10));
        Map<String, Set<Integer>> spread = activeBy(List.of(a, b, c));
        spread.forEach((id, partitions) -> assertTrue(partitions.size() >= 4 && partitions.size() <= 7,
                id + " is active on 4-7 partitions: " + spread));
        assertEquals(PARTITIONS, union(spread).size(), "every partition has an instance: " + spread);
        // What each one receives from now on is what it claims.
        ledger.handlersSince.clear();
        publish(publisher, 10, 15);
        advance(Duration.ofSeconds(2));
        assertEquals(spread, ledger.handlersSince(), "the partitions are handled where they are claimed");

        // kill -9 of the busiest instance, with deliveries in flight: no last beat, its connection just goes.
        Instance busiest = instances.stream().max(java.util.Comparator.comparingInt(i -> i.spreader.claimed().size()))
                .orElseThrow();
        publish(publisher, 15, 20);
        advance(Duration.ofMillis(3));
        assertTrue(server.unsettled() > 0, "the kill catches deliveries in flight");
        long killedAt = clock.millis();
        busiest.crash();
        List<Instance> survivors = instances.stream().filter(i -> i != busiest).toList();
        long takenOverAt = -1;
        for (int second = 1; second <= 30 && takenOverAt < 0; second++) {
            advance(Duration.ofSeconds(1));
            if (union(activeBy(survivors)).size() == PARTITIONS) {
                takenOverAt = clock.millis();
            }
        }
        assertTrue(takenOverAt > 0, "the survivors claim every partition within 30 s: " + activeBy(survivors));
        System.out.printf("three instances in process: %s killed at %d ms (active on %d); survivors claim all %d "
                + "partitions %d ms later%n", busiest.id, killedAt, busiest.claimedBeforeCrash, PARTITIONS,
                takenOverAt - killedAt);

        // A new instance takes its share of the partitions.
        Instance d = start("instance-d");
        publish(publisher, 20, 25);
        advance(Duration.ofSeconds(12));
        List<Instance> live = instances.stream().filter(i -> i != busiest).toList();
        Map<String, Set<Integer>> respread = activeBy(live);
        respread.forEach((id, partitions) -> assertTrue(partitions.size() >= 4 && partitions.size() <= 7,
                id + " is active on 4-7 partitions: " + respread));
        assertTrue(respread.get(d.id).size() >= 4, "the new instance took its share: " + respread);

        // A clean stop hands over at once (the last beat), without waiting for the liveness window, and only once what
        // the leaver holds is settled: it handles slowly now (50 virtual ms an entry), and stops with deliveries in
        // flight. Had it cancelled its consumers, RabbitMQ would have made another instance's active at once, which
        // would have handled later entries of a key before the leaver's earlier ones.
        Instance leaving = survivors.get(0);
        leaving.handling = Duration.ofMillis(50);
        publish(publisher, 25, PER_KEY);
        advance(Duration.ofMillis(3));
        assertTrue(server.unsettled() > 0, "the stop catches deliveries in flight");
        leaving.stop();
        advance(Duration.ofSeconds(3));
        List<Instance> last = live.stream().filter(i -> i != leaving).toList();
        assertEquals(PARTITIONS, union(activeBy(last)).size(), "the others claim the leaver's partitions at their next "
                + "beat: " + activeBy(last));
        advance(Duration.ofSeconds(5));

        assertTrue(ledger.outOfOrder.isEmpty(), "no key's number handled before the one before it: "
                + ledger.outOfOrder.size() + ", the first " + ledger.outOfOrder.stream().limit(5).toList());
        assertEquals(KEYS * PER_KEY, ledger.handled(), "every entry handled: missing " + ledger.missing());
        System.out.printf("three instances in process: %d entries over %d keys handled in order, %d handled again "
                + "(at least once: in flight at the kill)%n", ledger.handled(), KEYS, ledger.again);
    }

    private Instance start(String id) throws Exception {
        Instance instance = new Instance(id);
        instances.add(instance);
        instance.start();
        return instance;
    }

    /** What {@code TopologyPlan} declares for a partitioned subscription (PartitionScenarios compares the two). */
    private void declareTopology() throws Exception {
        BrokerChannel admin = server.connect().createChannel();
        admin.declareExchange(SUBSCRIPTION, "x-consistent-hash", true, false, Map.of());
        for (int partition = 0; partition < PARTITIONS; partition++) {
            admin.declareQueue(queue(partition), true, false, false,
                    Map.of("x-queue-type", "quorum", "x-single-active-consumer", true));
            admin.bindQueue(queue(partition), SUBSCRIPTION, "1", Map.of());
        }
        admin.close();
    }

    /** Entries {@code from} to {@code to} (exclusive) of every key, key by key in turn, routed by the key. */
    private void publish(BrokerChannel channel, int from, int to) throws Exception {
        for (int number = from; number < to; number++) {
            for (int key = 0; key < KEYS; key++) {
                channel.publish(SUBSCRIPTION, "account-" + key, false, new AMQP.BasicProperties(),
                        ("account-" + key + ":" + number).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private void advance(Duration duration) {
        clock.advance(duration, () -> server.awaitQuiet(Duration.ofSeconds(30)));
    }

    private static String queue(int partition) {
        return SUBSCRIPTION + "." + partition;
    }

    private static Map<String, Set<Integer>> activeBy(List<Instance> instances) {
        Map<String, Set<Integer>> active = new TreeMap<>();
        for (Instance instance : instances) {
            active.put(instance.id, new TreeSet<>(instance.spreader.claimed()));
        }
        return active;
    }

    private static Set<Integer> union(Map<String, Set<Integer>> spread) {
        Set<Integer> all = new TreeSet<>();
        spread.values().forEach(all::addAll);
        return all;
    }

    /** One instance of the service: its connection, a supervisor per partition, its spreader. */
    final class Instance {
        final String id;
        final BrokerConnection connection;
        final List<SubscriberSupervisor> supervisors = new ArrayList<>();
        PartitionSpreader spreader;
        /** How long it takes to handle an entry, in virtual time. */
        volatile Duration handling = HANDLING;
        volatile boolean dead;
        int claimedBeforeCrash;

        Instance(String id) {
            this.id = id;
            this.connection = server.connect();
        }

        void start() throws Exception {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                int p = partition;
                SubscriberSupervisor supervisor = new SubscriberSupervisor("Ledger#handle", queue(p), new Subscribing() {
                    @Override
                    public BrokerConnection connection() {
                        return connection;
                    }

                    @Override
                    public void prepareQueues(BrokerConnection connection) {
                    }

                    @Override
                    public Attachment attach(BrokerConnection connection, SubscriberSupervisor supervisor,
                            long generation) throws Exception {
                        return ReopeningAttachment.open(() -> consume(p, supervisor, generation));
                    }

                    @Override
                    public void consumingAgain() {
                    }
                }, new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0), clock, Runnable::run);
                supervisors.add(supervisor);
                supervisor.start(connection);
            }
            spreader = new PartitionSpreader(SUBSCRIPTION, id, supervisors, () -> connection, clock, Runnable::run);
            spreader.start();
        }

        /** A channel consuming partition {@code p}, as the assembler opens one: the claim's priority included. */
        private Attachment consume(int p, SubscriberSupervisor supervisor, long generation) throws Exception {
            BrokerChannel channel = connection.createChannel();
            channel.qos(PREFETCH);
            AtomicBoolean taking = new AtomicBoolean(true);
            io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler handler = new io.quarkiverse.rabbitmq.subscriber.runtime.broker.DeliveryHandler() {
                @Override
                public void delivered(String tag, com.rabbitmq.client.Envelope envelope,
                        AMQP.BasicProperties properties, byte[] body) {
                    if (taking.get()) {
                        long deliveryTag = envelope.getDeliveryTag();
                        clock.schedule(handling, () -> handle(channel, deliveryTag, p, body));
                    }
                }

                @Override
                public void cancelled() {
                    supervisor.lost(generation, "the broker cancelled the consumer");
                }
            };
            channel.onBrokerClose(closed -> supervisor.lost(generation, closed.getMessage()));
            Map<String, Object> arguments = supervisor.consumerArguments(Map.of());
            String tag = channel.consume(queue(p), handler, arguments);
            return Attachment.of(channel, null, handler, () -> taking.set(false), tag, () -> PREFETCH, arguments);
        }

        /** The handler: a virtual millisecond after the delivery, it records the entry, then acks. */
        private void handle(BrokerChannel channel, long deliveryTag, int partition, byte[] body) {
            if (dead || !channel.isOpen()) {
                return;
            }
            ledger.handle(id, partition, new String(body, StandardCharsets.UTF_8));
            try {
                channel.ack(deliveryTag, false);
            } catch (Exception e) {
                // Its channel closed meanwhile: the entry comes again (at least once).
            }
        }

        /** kill -9: the connection goes, nothing more is handled, no last beat. */
        void crash() {
            if (dead) {
                return;
            }
            claimedBeforeCrash = spreader == null ? 0 : spreader.claimed().size();
            dead = true;
            connection.close();
            if (spreader != null) {
                // Its channel is closed already: the last beat cannot leave, as after a kill.
                spreader.stop();
            }
        }

        /**
         * A clean stop, in the engine's order: the last beat, no more deliveries taken, what they hold settled, the
         * connection closed.
         */
        void stop() {
            spreader.stop();
            supervisors.forEach(SubscriberSupervisor::stopTaking);
            advance(handling.multipliedBy(PREFETCH + 1));
            dead = true;
            connection.close();
        }
    }

    /** The handlers' record: each key's numbers must come in order; one handled again is at least once. */
    static final class Ledger {
        final Map<String, Integer> lastByKey = new HashMap<>();
        final List<String> outOfOrder = new ArrayList<>();
        final Map<Integer, String> handlersSince = new TreeMap<>();
        int again;

        synchronized void handle(String instance, int partition, String entry) {
            int colon = entry.indexOf(':');
            String key = entry.substring(0, colon);
            int number = Integer.parseInt(entry.substring(colon + 1));
            int last = lastByKey.getOrDefault(key, -1);
            if (number <= last) {
                again++;
            } else if (number == last + 1) {
                lastByKey.put(key, number);
            } else {
                outOfOrder.add(key + " got " + number + " after " + last + " (" + instance + ", partition " + partition
                        + ")");
            }
            handlersSince.put(partition, instance);
        }

        synchronized Map<String, Set<Integer>> handlersSince() {
            Map<String, Set<Integer>> by = new TreeMap<>();
            handlersSince.forEach((partition, instance) -> by.computeIfAbsent(instance, i -> new TreeSet<>()).add(partition));
            return by;
        }

        synchronized int handled() {
            return lastByKey.values().stream().mapToInt(last -> last + 1).sum();
        }

        synchronized List<String> missing() {
            List<String> missing = new ArrayList<>();
            for (int key = 0; key < KEYS && missing.size() < 10; key++) {
                int last = lastByKey.getOrDefault("account-" + key, -1);
                if (last < PER_KEY - 1) {
                    missing.add("account-" + key + " up to " + last);
                }
            }
            return missing;
        }
    }
}
