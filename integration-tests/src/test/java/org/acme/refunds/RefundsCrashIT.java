package org.acme.refunds;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.WireProperties;
import io.quarkiverse.rabbitmq.subscriber.testsupport.BrokerAnswers;

/**
 * The packaged example killed at each point of an inbox delivery (a JVM halt, as {@code kill -9}, injected from
 * outside by Byteman's agent: {@link CrashRules}), then started again: every refund is recorded once, its {@code RefundIssued}
 * event reaches
 * the audit trail (an inbox subscriber too) once, and the outbox is empty. Then two instances on one queue and one
 * database: 1,000 refunds and 100 of them requested again, each recorded once, both instances handling some; and
 * 2,000 groups a crash left in the outbox, which both relays share, each published once.
 */
@ExtendWith({ BrokerAnswers.class, PostgresAnswers.class })
class RefundsCrashIT {

    static final String AMQP_URL = "amqp://guest:guest@127.0.0.1:5672";
    static final String JDBC_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final Path JAR = Path.of("target", "quarkus-app", "quarkus-run.jar");

    final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void clean() throws Exception {
        RefundsQueueCleanup.reset();
    }

    @AfterAll
    static void cleanAfter() throws Exception {
        RefundsQueueCleanup.reset();
    }

    /**
     * Each instance after a crash is the next crash point's: the one that halts before the commit leaves refund 9001
     * to the next, which commits it and halts before publishing its event; the next finds it a duplicate, its relay
     * publishes the event, then it halts on refund 9002 after publishing its event and before deleting its rows; the
     * last finds that one a duplicate, and its relay publishes the event again, with the same message-id.
     */
    @Test
    void everyEffectOnceAfterACrashAtEachPoint() throws Exception {
        Process beforeCommit = start(18091, "before-commit");
        publish(9001, 1);
        halted(beforeCommit, "before-commit");
        assertEquals(0, count("refunds.refund_records WHERE refundid = 9001"), "rolled back with the crash");

        // The redelivery: recorded and committed, then a halt before its event leaves (maybe before it is ready).
        Process afterCommit = launch(18091, "after-commit");
        halted(afterCommit, "after-commit");
        assertEquals(1, count("refunds.refund_records WHERE refundid = 9001"), "committed before the crash");
        assertEquals(1, count("refunds.rabbitmq_subscriber_outbox"), "its event waits in the outbox");

        // The redelivery is a duplicate; the relay publishes the event. Then refund 9002: published, not deleted.
        Process afterPublish = start(18091, "after-publish");
        await().atMost(Duration.ofSeconds(60)).until(() -> count("refunds.issued_audit WHERE refundid = 9001") == 1
                && count("refunds.rabbitmq_subscriber_outbox") == 0);
        publish(9002, 1);
        halted(afterPublish, "after-publish");

        Process again = start(18091, null);
        await().atMost(Duration.ofSeconds(60)).until(() -> count("refunds.refund_records WHERE refundid = 9002") == 1
                && count("refunds.issued_audit WHERE refundid = 9002") == 1
                && count("refunds.rabbitmq_subscriber_outbox") == 0);
        // Nothing more comes: once each.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(
                () -> count("refunds.refund_records WHERE refundid IN (9001, 9002)") == 2
                        && count("refunds.issued_audit WHERE refundid IN (9001, 9002)") == 2);
        stop(again);
    }

    void halted(Process process, String point) throws InterruptedException {
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the instance halts at " + point);
        assertEquals(137, process.exitValue(), point);
    }

    @Test
    void twoInstancesShareTheQueueAndRecordEachRefundOnce() throws Exception {
        Process one = start(18092, null);
        Process two = start(18093, null);
        publish(20_000, 1_000);
        // The first 100 again, with the same message-ids (a publisher that retried).
        publish(20_000, 100);
        await().atMost(Duration.ofSeconds(120)).until(() -> count("refunds.refund_records WHERE refundid >= 20000") == 1_000
                && count("refunds.issued_audit WHERE refundid >= 20000") == 1_000);
        // The copies come last: wait until both instances together counted them.
        await().atMost(Duration.ofSeconds(60)).until(() -> counter(get(18092, "/q/metrics"), "duplicate")
                + counter(get(18093, "/q/metrics"), "duplicate") == 100);
        double acked = 0;
        for (int port : new int[] { 18092, 18093 }) {
            String metrics = get(port, "/q/metrics");
            double mine = counter(metrics, "ack");
            assertTrue(mine > 0, "instance on port " + port + " handled none: " + metrics.lines()
                    .filter(line -> line.startsWith("quarkus_rabbitmq_subscriber_outcomes_total")).toList());
            acked += mine;
        }
        assertEquals(1_000, acked, 0.0);
        assertEquals(1_000, count("refunds.refund_records WHERE refundid >= 20000"));

        // What crashes left in the outbox: 2,000 groups, each one RefundIssued event. Both relays take batches of it
        // (FOR UPDATE SKIP LOCKED, no leader), and the audit trail records each event once.
        leaveInOutbox(40_000, 2_000);
        await().atMost(Duration.ofSeconds(120)).until(() -> count("refunds.issued_audit WHERE refundid >= 40000") == 2_000
                && count("refunds.rabbitmq_subscriber_outbox") == 0);
        double first = relayed(get(18092, "/q/metrics"));
        double second = relayed(get(18093, "/q/metrics"));
        System.out.printf("The relays' shares of 2,000 groups: %.0f and %.0f%n", first, second);
        assertTrue(first > 0 && second > 0, "each relay published a share: " + first + " and " + second);
        assertEquals(2_000, first + second, 0.0, "no group twice");
        assertEquals(2_000, count("refunds.issued_audit WHERE refundid >= 40000"));
        stop(one);
        stop(two);
    }

    /** The groups this instance's relay published. */
    static double relayed(String metrics) {
        Matcher matcher = Pattern.compile("quarkus_rabbitmq_subscriber_outbox_relayed_total ([0-9.E]+)")
                .matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    /** Outbox groups as an inbox handler writes them, long enough ago for the relay: a RefundIssued event each. */
    static void leaveInOutbox(long first, int n) throws SQLException {
        try (Connection connection = DriverManager.getConnection(JDBC_URL, "postgres", "postgres");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO refunds.rabbitmq_subscriber_outbox "
                        + "(group_id, seq, created_at, exchange, routing_key, mandatory, message_id, properties, body) "
                        + "VALUES (?, 0, timestamp '2000-01-01 00:00:00', ?, ?, true, ?, ?, ?)")) {
            connection.setAutoCommit(false);
            for (long id = first; id < first + n; id++) {
                String messageId = "issued-relayed-" + id;
                insert.setString(1, UUID.randomUUID().toString());
                insert.setString(2, RefundIssued.EXCHANGE);
                insert.setString(3, RefundIssued.KEY);
                insert.setString(4, messageId);
                insert.setBytes(5, WireProperties.encode(new AMQP.BasicProperties.Builder().messageId(messageId)
                        .contentType("application/json").deliveryMode(2).build()));
                insert.setBytes(6, ("{\"refundId\":" + id + ",\"card\":\"4242-relay\",\"amountCents\":100}")
                        .getBytes(StandardCharsets.UTF_8));
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    @org.junit.jupiter.api.AfterEach
    void stopAll() {
        started.forEach(Process::destroyForcibly);
        started.clear();
    }

    /** The ack count of the refunds queue, tagged outcome. */
    static double counter(String metrics, String outcome) {
        // Prometheus writes the labels in name order: broker, outcome, queue.
        Matcher matcher = Pattern.compile("quarkus_rabbitmq_subscriber_outcomes_total\\{broker=\"<default>\",outcome=\""
                + outcome + "\",queue=\"refunds\",?} ([0-9.E]+)").matcher(metrics);
        return matcher.find() ? Double.parseDouble(matcher.group(1)) : 0;
    }

    /** Starts the packaged example and waits until it is ready. */
    Process start(int port, String crashAt) throws Exception {
        Process process = launch(port, crashAt);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("The example on port " + port + " stopped: see its log in target");
            }
            try {
                return get(port, "/q/health/ready").contains("\"UP\"");
            } catch (IOException e) {
                return false;
            }
        });
        return process;
    }

    /** Starts the packaged example, without waiting: one that halts on a redelivery may never be ready. */
    Process launch(int port, String crashAt) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Dquarkus.http.port=" + port, "-Dquarkus.rabbitmq-subscriber.url=" + AMQP_URL,
                "-Dquarkus.rabbitmq-subscriber.outbox.relay.min-age=2s"));
        if (crashAt != null) {
            command.add(CrashRules.agent(crashAt));
        }
        command.addAll(List.of("-jar", JAR.toString()));
        File log = Path.of("target", "crash-" + port + "-" + (crashAt == null ? "run" : crashAt) + ".log").toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log)).start();
        started.add(process);
        return process;
    }

    void stop(Process process) throws InterruptedException {
        process.destroy();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Refunds {@code first} to {@code first + n - 1}, each with its id as the message-id, confirmed. */
    static void publish(long first, int n) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(AMQP_URL);
        try (com.rabbitmq.client.Connection connection = factory.newConnection("refunds-crash-test");
                Channel channel = connection.createChannel()) {
            channel.confirmSelect();
            for (long id = first; id < first + n; id++) {
                byte[] body = ("{\"id\":" + id + ",\"card\":\"4242-crash\",\"amountCents\":100}")
                        .getBytes(StandardCharsets.UTF_8);
                channel.basicPublish("payments", "refund.requested", true, new AMQP.BasicProperties.Builder()
                        .messageId("refund-" + id).contentType("application/json").deliveryMode(2).build(), body);
            }
            channel.waitForConfirmsOrDie(30_000);
        }
    }

    static long count(String from) throws SQLException {
        try (Connection connection = DriverManager.getConnection(JDBC_URL, "postgres", "postgres");
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + from)) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            if ("42P01".equals(e.getSQLState())) {
                // Not created yet: the instance is starting.
                return -1;
            }
            throw e;
        }
    }

    static String get(int port, String path) throws IOException {
        HttpURLConnection http = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL()
                .openConnection();
        http.setConnectTimeout(1000);
        try (var in = http.getResponseCode() < 400 ? http.getInputStream() : http.getErrorStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
