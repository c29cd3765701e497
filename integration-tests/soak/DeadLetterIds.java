import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;

/**
 * The soak run's dead letters, for its report: the message-id of every message in the given dead-letter queues, one
 * "queue id" line each (the work queue's name), read with basic.get and left there (the channel's close requeues them).
 *
 *   java -cp amqp-client.jar:slf4j-api.jar DeadLetterIds.java port out queue.dead [queue.dead ...]
 */
public class DeadLetterIds {

    public static void main(String[] args) throws Exception {
        ConnectionFactory factory = new ConnectionFactory();
        factory.setPort(Integer.parseInt(args[0]));
        try (Connection connection = factory.newConnection("soak-report");
                PrintWriter out = new PrintWriter(Files.newBufferedWriter(Path.of(args[1])))) {
            for (int i = 2; i < args.length; i++) {
                String queue = args[i];
                try (Channel channel = connection.createChannel()) {
                    GetResponse response;
                    while ((response = channel.basicGet(queue, false)) != null) {
                        out.println(queue.substring(0, queue.length() - ".dead".length()) + " "
                                + response.getProps().getMessageId());
                    }
                }
            }
        }
    }
}
