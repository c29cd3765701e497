import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * Publishes N messages to a queue at a fixed rate, each carrying the wall-clock time of its publish (epoch nanoseconds,
 * the first 8 bytes of a 100-byte body): a consumer on the same machine subtracts it from its own clock at handling.
 * Paced per millisecond (what is due by now leaves now), so a rate of 10,000/s is 10 messages each millisecond.
 * <p>
 * Before the run it warms its own publishing path up (50,000 messages to a queue of its own, deleted; -Dwarm-up=0: none),
 * then waits a second for the compiler: otherwise the JIT compiled that path about 5 s into the run (124 ms of C2 for
 * {@code basicPublish}, on the core it shares with RabbitMQ), and every consumer measured slow messages in its sixth
 * second that no consumer caused.
 * Usage: java -cp amqp-client.jar LatencyPublisher.java QUEUE RATE N | QUEUE delete
 */
public class LatencyPublisher {
    public static void main(String[] args) throws Exception {
        String queue = args[0];
        ConnectionFactory factory = new ConnectionFactory();
        factory.setUri(System.getProperty("url", "amqp://guest:guest@127.0.0.1:5672"));
        try (Connection connection = factory.newConnection("bench-latency"); Channel channel = connection.createChannel()) {
            if ("delete".equals(args[1])) {
                channel.queueDelete(queue);
                return;
            }
            int rate = Integer.parseInt(args[1]);
            int count = Integer.parseInt(args[2]);
            // Declared as the subscribers declare it (durable classic, no arguments), so it exists before they start.
            channel.queueDeclare(queue, true, false, false, null);
            channel.queuePurge(queue);
            AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().deliveryMode(1).build();
            byte[] body = new byte[100];
            int warmUp = Integer.getInteger("warm-up", 50_000);
            if (warmUp > 0 && count > 0) {
                String scratch = channel.queueDeclare().getQueue();
                for (int i = 0; i < warmUp; i++) {
                    publishStamped(channel, scratch, properties, body);
                }
                channel.queueDelete(scratch);
                Thread.sleep(1_000);
            }
            long start = System.nanoTime();
            int sent = 0;
            while (sent < count) {
                long due = Math.min(count, (System.nanoTime() - start) * rate / 1_000_000_000L + 1);
                while (sent < due) {
                    publishStamped(channel, queue, properties, body);
                    sent++;
                }
                long next = start + (sent * 1_000_000_000L) / rate;
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(Math.min(wait, TimeUnit.MILLISECONDS.toNanos(1)));
                }
            }
            System.out.println("published " + count + " at " + rate + "/s in "
                    + (System.nanoTime() - start) / 1_000_000 + " ms");
        }
    }

    /** Writes the wall-clock time of the publish into the body and publishes it: the path the warm-up compiles. */
    private static void publishStamped(Channel channel, String queue, AMQP.BasicProperties properties, byte[] body)
            throws IOException {
        Instant now = Instant.now();
        ByteBuffer.wrap(body).putLong(now.getEpochSecond() * 1_000_000_000L + now.getNano());
        channel.basicPublish("", queue, properties, body);
    }
}
