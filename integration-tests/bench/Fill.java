import java.nio.charset.StandardCharsets;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * Declares the benchmark queue as the extension does (durable classic, no arguments), empties it and fills it with
 * N small JSON refunds, waiting for the broker's confirms. Usage: java -cp amqp-client.jar Fill.java QUEUE N|delete
 * [quorum-cap5 DEAD-LETTER-QUEUE | quorum-plain]
 */
public class Fill {
    public static void main(String[] args) throws Exception {
        String queue = args[0];
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(System.getProperty("url", "amqp://guest:guest@127.0.0.1:5672"));
        try (Connection connection = factory.newConnection("bench-fill"); Channel channel = connection.createChannel()) {
            if ("delete".equals(args[1])) {
                channel.queueDelete(queue);
                return;
            }
            int count = Integer.parseInt(args[1]);
            // "quorum-cap5 DEAD": the arguments the extension declares for a quorum queue with maxAttempts 5.
            java.util.Map<String, Object> arguments = args.length < 3 ? null
                    : args[2].equals("quorum-cap5") ? java.util.Map.of("x-queue-type", "quorum", "x-delivery-limit", 4,
                            "x-dead-letter-exchange", "", "x-dead-letter-routing-key", args[3],
                            "x-dead-letter-strategy", "at-least-once", "x-overflow", "reject-publish")
                    : java.util.Map.of("x-queue-type", "quorum");
            channel.queueDeclare(queue, true, false, false, arguments);
            channel.queuePurge(queue);
            channel.confirmSelect();
            // -Dpersistent=true: delivery mode 2 (written to disk); -Dsize=N: each body padded with spaces to N bytes.
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("application/json")
                    .deliveryMode(Boolean.getBoolean("persistent") ? 2 : 1).build();
            int size = Integer.getInteger("size", 0);
            for (int i = 1; i <= count; i++) {
                String body = "{\"id\":" + i + ",\"card\":\"4242-4242\",\"amountCents\":" + (i % 10_000) + "}";
                if (body.length() < size) {
                    body = body + " ".repeat(size - body.length());
                }
                channel.basicPublish("", queue, properties, body.getBytes(StandardCharsets.UTF_8));
                if (i % 5_000 == 0) {
                    channel.waitForConfirmsOrDie(60_000);
                }
            }
            channel.waitForConfirmsOrDie(60_000);
            System.out.println("filled " + queue + " with " + channel.queueDeclarePassive(queue).getMessageCount()
                    + " messages");
        }
    }
}
