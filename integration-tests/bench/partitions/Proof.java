import com.rabbitmq.client.*;
import java.nio.charset.StandardCharsets;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/**
 * The ordered-partitions proof's publisher and checker. publish: N entries over K keys (header "key", body
 * "<key> <seq>"), confirmed, to the consistent-hash exchange proof.ledger. check: reads proof.results, one result per
 * handling ("<key> <seq> <instance> <millis> <queue> <first|redelivered>", the instances sharing the machine's clock) and checks every key: every
 * number is there, and each number was first handled no later than the next one was (so no handling of a number
 * started before one of the number before it: at least once allows a number handled twice, never out of order).
 * Also counts results that arrived out of order in the results queue: the queue's own order is not the handling
 * order once the checker's connection is cut (what it had not acked comes back later).
 *
 *   java -cp amqp-client.jar:slf4j-api.jar Proof.java URI publish N K
 *   java -cp ... Proof.java URI check N K TIMEOUT_SECONDS
 */
public class Proof {
    public static void main(String[] a) throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setUri(a[0]);
        List<Address> nodes = java.util.Arrays.stream(System.getenv().getOrDefault("PROOF_PORTS", "5711,5712,5713").split(","))
                .map(port -> new Address("127.0.0.1", Integer.parseInt(port))).toList();
        f.setAutomaticRecoveryEnabled(true);
        int n = Integer.parseInt(a[2]), keys = Integer.parseInt(a[3]);
        try (Connection c = f.newConnection(nodes, "proof-" + a[1])) {
            if (a[1].equals("publish")) {
                publish(c, n, keys);
            } else {
                System.exit(check(c, n, keys, Integer.parseInt(a[4])) ? 0 : 1);
            }
        }
    }

    static void publish(Connection c, int n, int keys) throws Exception {
        Channel ch = c.createChannel();
        ch.confirmSelect();
        int[] next = new int[keys];
        for (int i = 0; i < n; i++) {
            int k = i % keys;
            String key = "k" + k;
            ch.basicPublish("proof.ledger", "", new AMQP.BasicProperties.Builder().deliveryMode(2)
                    .headers(Map.of("key", key)).build(), (key + " " + next[k]++).getBytes(StandardCharsets.UTF_8));
            if (i % 500 == 499) {
                ch.waitForConfirmsOrDie(30_000);
            }
        }
        ch.waitForConfirmsOrDie(30_000);
        System.out.println("published " + n + " over " + keys + " keys");
    }

    static boolean check(Connection c, int n, int keys, int timeoutSeconds) throws Exception {
        Channel ch = c.createChannel();
        ch.basicQos(1000);
        Map<String, Integer> last = new HashMap<>();
        Map<String, Long> firstHandled = new ConcurrentHashMap<>();
        // What the first handling of each number said after "<key> <seq>": instance, millis, queue, first|redelivered.
        Map<String, String> firstRecord = new ConcurrentHashMap<>();
        Set<String> distinct = new HashSet<>();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Map<String, AtomicInteger> byInstance = new ConcurrentHashMap<>();
        AtomicInteger results = new AtomicInteger();
        AtomicInteger duplicates = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        ch.basicConsume("proof.results", false, new DefaultConsumer(ch) {
            @Override
            public void handleDelivery(String tag, Envelope e, AMQP.BasicProperties p, byte[] body) throws java.io.IOException {
                String[] parts = new String(body, StandardCharsets.UTF_8).replace("\"", "").split(" ");
                String key = parts[0];
                int seq = Integer.parseInt(parts[1]);
                long at = Long.parseLong(parts[3]);
                String record = String.join(" ", Arrays.copyOfRange(parts, 2, parts.length));
                firstHandled.merge(key + " " + seq, at, Math::min);
                firstRecord.merge(key + " " + seq, record, (a, b) -> Long.parseLong(a.split(" ")[1]) <= Long.parseLong(b.split(" ")[1]) ? a : b);
                byInstance.computeIfAbsent(parts[2], i -> new AtomicInteger()).incrementAndGet();
                results.incrementAndGet();
                synchronized (last) {
                    int before = last.getOrDefault(key, -1);
                    if (seq == before + 1) {
                        last.put(key, seq);
                    } else if (seq <= before) {
                        duplicates.incrementAndGet();
                    } else {
                        problems.add(key + ": " + seq + " after " + before + " (from " + parts[2] + ")");
                    }
                    distinct.add(key + " " + seq);
                    if (distinct.size() == n) {
                        done.countDown();
                    }
                }
                getChannel().basicAck(e.getDeliveryTag(), false);
            }
        });
        long deadline = System.currentTimeMillis() + timeoutSeconds * 1000L;
        long started = System.currentTimeMillis();
        while (!done.await(1, TimeUnit.SECONDS) && System.currentTimeMillis() < deadline) {
            synchronized (last) {
                System.out.println("t+" + (System.currentTimeMillis() - started) / 1000 + "s results " + results.get()
                        + " distinct " + distinct.size() + " duplicates " + duplicates.get() + " by instance "
                        + new TreeMap<>(byInstance) + " problems " + problems.size());
            }
        }
        synchronized (last) {
            int missing = 0;
            for (int k = 0; k < keys; k++) {
                int expected = n / keys + (k < n % keys ? 1 : 0);
                if (last.getOrDefault("k" + k, -1) != expected - 1) {
                    missing++;
                }
            }
            List<String> outOfOrder = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                int count = n / keys + (k < n % keys ? 1 : 0);
                for (int seq = 1; seq < count; seq++) {
                    Long before = firstHandled.get("k" + k + " " + (seq - 1));
                    Long after = firstHandled.get("k" + k + " " + seq);
                    if (before != null && after != null && after < before) {
                        outOfOrder.add("k" + k + ": " + seq + " first handled at " + after + ", " + (seq - 1) + " at "
                                + before + " (" + seq + ": " + firstRecord.get("k" + k + " " + seq) + "; " + (seq - 1) + ": "
                                + firstRecord.get("k" + k + " " + (seq - 1)) + ")");
                    }
                }
            }
            System.out.println("RESULT results " + results.get() + " distinct " + distinct.size() + " of " + n
                    + " duplicates " + duplicates.get() + " keys incomplete " + missing + " handled out of order "
                    + outOfOrder.size() + " (arrived out of order in the results queue " + problems.size()
                    + ") by instance " + new TreeMap<>(byInstance));
            outOfOrder.stream().limit(10).forEach(problem -> System.out.println("  " + problem));
            // The whole story of the first two keys out of order: each number's first handling.
            outOfOrder.stream().limit(2).forEach(problem -> {
                String key = problem.substring(0, problem.indexOf(':'));
                int seq = Integer.parseInt(problem.substring(problem.indexOf(' ') + 1, problem.indexOf(" first")));
                for (int s = Math.max(0, seq - 8); s <= seq + 2; s++) {
                    System.out.println("    " + key + " " + s + ": " + firstRecord.get(key + " " + s));
                }
            });
            problems.stream().limit(5).forEach(problem -> System.out.println("  arrived: " + problem));
            return outOfOrder.isEmpty() && missing == 0 && distinct.size() == n;
        }
    }
}
