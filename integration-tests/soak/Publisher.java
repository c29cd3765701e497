import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The soak run's publisher, apart from the application (which is killed and restarted): for {@code seconds}, about
 * {@code rate} messages a second, in turn to each of the soak queues, each confirmed before it counts; what the
 * broker did not confirm (a cut, a node stopped) is published again, same id. Every message id confirmed is written to
 * {@code published}: "queue id poison" per line (poison 1 or 0). The ordered queue's messages carry a key (64 of them)
 * and each key's numbers in order; every 100th inbox message is published twice (the inbox must handle it once). Also
 * a request every second through direct reply-to, the answers counted. Prints its totals at the end.
 *
 *   java -cp amqp-client.jar:slf4j-api.jar Publisher.java host:port,host:port,... rate seconds published
 */
public class Publisher {

    static final List<String> QUEUES = List.of("soak.classic", "soak.quorum", "soak.batch", "soak.ordered", "soak.inbox");

    public static void main(String[] args) throws Exception {
        List<Address> addresses = new ArrayList<>();
        for (String address : args[0].split(",")) {
            String[] parts = address.split(":");
            addresses.add(new Address(parts[0], Integer.parseInt(parts[1])));
        }
        int rate = Integer.parseInt(args[1]);
        long seconds = Long.parseLong(args[2]);
        Path published = Path.of(args[3]);
        ConnectionFactory factory = new ConnectionFactory();
        factory.setAutomaticRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(1000);
        factory.setRequestedHeartbeat(5);
        long[] sequence = new long[QUEUES.size()];
        long[] keySequence = new long[64];
        AtomicLong answers = new AtomicLong();
        java.util.Set<String> returned = java.util.concurrent.ConcurrentHashMap.newKeySet();
        long requests = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        long interval = TimeUnit.SECONDS.toNanos(1) / rate;
        long next = System.nanoTime();
        long confirmed = 0;
        long republished = 0;
        try (BufferedWriter out = Files.newBufferedWriter(published, StandardCharsets.UTF_8);
                Connection connection = factory.newConnection(addresses, "soak-publisher")) {
            Channel channel = null;
            Channel requester = connection.createChannel();
            requester.basicConsume("amq.rabbitmq.reply-to", true, (tag, delivery) -> answers.incrementAndGet(),
                    tag -> {
                    });
            long turn = 0;
            while (System.nanoTime() < end) {
                List<String[]> batch = new ArrayList<>();
                for (int i = 0; i < 20; i++, turn++) {
                    int q = (int) (turn % QUEUES.size());
                    String queue = QUEUES.get(q);
                    long seq = ++sequence[q];
                    String key = null;
                    String body = "m-" + seq;
                    if (queue.equals("soak.ordered")) {
                        int k = (int) (seq % keySequence.length);
                        key = "key-" + k;
                        body = key + ":" + (++keySequence[k]);
                    } else if ((queue.equals("soak.classic") || queue.equals("soak.quorum")) && seq % 1000 == 0) {
                        body = "poison-" + seq;
                    }
                    batch.add(new String[] { queue, queue + ":" + seq, body, key });
                    if (queue.equals("soak.inbox") && seq % 100 == 0) {
                        batch.add(new String[] { queue, queue + ":" + seq, body, key });
                    }
                }
                // Published until confirmed, the whole group again after a failure (same ids: duplicates, no loss),
                // and what RabbitMQ returned (no queue took it: a classic queue whose node is down) again until taken.
                List<String[]> toSend = batch;
                for (;;) {
                    try {
                        if (channel == null || !channel.isOpen()) {
                            channel = connection.createChannel();
                            channel.confirmSelect();
                            channel.addReturnListener(returnedMessage -> returned.add(
                                    returnedMessage.getProperties().getMessageId()));
                        }
                        returned.clear();
                        for (String[] message : toSend) {
                            AMQP.BasicProperties.Builder properties = new AMQP.BasicProperties.Builder().deliveryMode(2)
                                    .messageId(message[1]).contentType("text/plain");
                            Map<String, Object> headers = new java.util.HashMap<>();
                            headers.put("soak-published-at", String.valueOf(System.currentTimeMillis()));
                            if (message[3] != null) {
                                headers.put("soak-key", message[3]);
                            }
                            // The ordered partitions are reached through their exchange, keyed by the header.
                            boolean ordered = message[0].equals("soak.ordered");
                            channel.basicPublish(ordered ? "soak.ordered" : "", ordered ? "" : message[0], true,
                                    properties.headers(headers).build(), message[2].getBytes(StandardCharsets.UTF_8));
                        }
                        channel.waitForConfirmsOrDie(10_000);
                        // A return comes before its confirm: every return of the group is in.
                        List<String[]> again = toSend.stream().filter(message -> returned.contains(message[1])).toList();
                        if (again.isEmpty()) {
                            break;
                        }
                        republished += again.size();
                        toSend = again;
                        Thread.sleep(1000);
                    } catch (Exception e) {
                        republished += toSend.size();
                        try {
                            if (channel != null && channel.isOpen()) {
                                channel.abort();
                            }
                        } catch (Exception ignored) {
                        }
                        channel = null;
                        Thread.sleep(1000);
                    }
                }
                for (String[] message : batch) {
                    out.write(message[0] + " " + message[1] + (message[2].startsWith("poison") ? " 1" : " 0") + "\n");
                }
                out.flush();
                confirmed += batch.size();
                if (turn / 20 % Math.max(1, rate / 20) == 0) {
                    try {
                        requester.basicPublish("", "soak.requests", new AMQP.BasicProperties.Builder()
                                .replyTo("amq.rabbitmq.reply-to").messageId("soak.requests:" + (++requests))
                                .headers(Map.of("soak-published-at", String.valueOf(System.currentTimeMillis()))).build(),
                                ("request-" + requests).getBytes(StandardCharsets.UTF_8));
                    } catch (Exception e) {
                        // Cut: the next one goes once the connection is back.
                    }
                }
                next += interval * batch.size();
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } else {
                    next = System.nanoTime();
                }
            }
            Thread.sleep(3000);
        }
        System.out.printf("PUBLISHER confirmed %d messages (%d published again after a failure), %d requests, %d answered%n",
                confirmed, republished, requests, answers.get());
    }
}
