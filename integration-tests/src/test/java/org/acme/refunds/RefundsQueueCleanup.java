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
    static final String[] QUEUES = { "refunds", "refunds.dead", "refunds.retry", "payouts", "payouts.dead" };

    @Override
    public Map<String, String> start() {
        run(channel -> {
            for (String queue : QUEUES) {
                channel.queueDelete(queue);
            }
        });
        return Map.of("quarkus.rabbitmq-subscriber.url", URL);
    }

    @Override
    public void stop() {
        run(channel -> {
            for (String queue : QUEUES) {
                channel.queueDelete(queue);
            }
        });
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
