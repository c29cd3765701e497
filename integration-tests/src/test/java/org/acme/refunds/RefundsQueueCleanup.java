package org.acme.refunds;

import java.util.Map;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Empties the example's queue before the application starts and deletes it after it stopped: deleted under a running
 * application, the subscriber would see its consumer cancelled and declare the queue again.
 */
public class RefundsQueueCleanup implements QuarkusTestResourceLifecycleManager {

    static final String URL = "amqp://guest:guest@127.0.0.1:5672";
    static final String[] QUEUES = { "refunds", "refunds.dead", "refunds.dead.parked", "refunds.retry", "payouts",
            "payouts.dead", "payouts.dead.parked",
            "audit.payouts", "audit.refunds-issued", "ledger-lines" };
    static final String[] EXCHANGES = { "payments", "payout-requests", "refund-events" };

    @Override
    public Map<String, String> start() {
        dropRefundsSchema();
        run(channel -> {
            for (String queue : QUEUES) {
                channel.queueDelete(queue);
            }
        });
        return Map.of("quarkus.rabbitmq-subscriber.url", URL);
    }

    @Override
    public void stop() {
        // A packaged application (an integration test) is stopped after this returns: delete the queues once its
        // consumers are gone, or it would see them go and declare them again. A non-daemon thread keeps the test JVM
        // until then. (In a @QuarkusTest the application has stopped already: they go at once.)
        Thread deleter = new Thread(() -> {
            try {
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                        .pollInterval(java.time.Duration.ofMillis(200)).until(() -> consumers("refunds") == 0);
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // Deleted anyway: a consumer still there is told its queue went.
            }
            deleteQueues();
            dropRefundsSchema();
        }, "refunds-queue-cleanup");
        deleter.start();
        pending = deleter;
    }

    /** The last cleanup after a packaged application, which may still be waiting for it to stop. */
    private static volatile Thread pending;

    /**
     * No queue, exchange or table of the example's left: before and after a test that starts it itself, once the
     * cleanup after the test before has run (it would delete what the next test's application declared).
     */
    static void reset() throws InterruptedException {
        Thread before = pending;
        if (before != null) {
            before.join(60_000);
        }
        deleteQueues();
        dropRefundsSchema();
    }

    /**
     * The packaged example records refunds, its inbox and its outbox in schema {@code refunds} of PostgreSQL's database
     * {@code test}: a run starts without the message-ids of the last (which its inbox would take as duplicates) and
     * leaves nothing. Nothing to do where no PostgreSQL answers (the {@code @QuarkusTest}s use H2).
     */
    private static void dropRefundsSchema() {
        try (java.sql.Connection connection = java.sql.DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:5432/test", "postgres", "postgres");
                java.sql.Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS refunds CASCADE");
        } catch (java.sql.SQLException e) {
            // No PostgreSQL here: the packaged example's tests are skipped (PostgresAnswers).
        }
    }

    private static void deleteQueues() {
        run(channel -> {
            for (String queue : QUEUES) {
                channel.queueDelete(queue);
            }
            for (String exchange : EXCHANGES) {
                channel.exchangeDelete(exchange);
            }
        });
    }

    private static int consumers(String queue) {
        int[] count = { 0 };
        try {
            run(channel -> count[0] = channel.queueDeclarePassive(queue).getConsumerCount());
        } catch (IllegalStateException e) {
            return 0;
        }
        return count[0];
    }

    private interface ChannelWork {
        void run(Channel channel) throws Exception;
    }

    private static void run(ChannelWork work) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(URL);
            try (Connection connection = factory.newConnection("refunds-test-cleanup");
                    Channel channel = connection.createChannel()) {
                work.run(channel);
            }
        } catch (Exception e) {
            throw new IllegalStateException("The example's tests need RabbitMQ at " + URL, e);
        }
    }
}
