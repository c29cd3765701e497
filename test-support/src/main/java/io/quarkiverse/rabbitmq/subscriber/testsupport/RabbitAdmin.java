package io.quarkiverse.rabbitmq.subscriber.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;

/**
 * The test's own view of the broker under test ({@link WireBroker}), through a plain amqp-client: what a RabbitMQ
 * operator would see.
 */
public final class RabbitAdmin implements AutoCloseable {

    private final Connection connection;
    private final Channel channel;

    public RabbitAdmin() {
        try {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setUri(WireBroker.URL);
            connection = factory.newConnection("test-admin");
            channel = connection.createChannel();
        } catch (Exception e) {
            throw new IllegalStateException("The tests need " + WireBroker.name(), e);
        }
    }

    /** Runs the action on a fresh admin connection (for QuarkusUnitTest customizers). */
    public static void with(ThrowingConsumer action) {
        try (RabbitAdmin admin = new RabbitAdmin()) {
            action.accept(admin);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Whether the broker has the rabbitmq_delayed_message_exchange plugin. Declaring its exchange type is the test:
     * without the plugin RabbitMQ refuses the type and closes the (throwaway) connection.
     */
    /**
     * Whether the broker knows an exchange type (a plugin's: x-delayed-message, x-consistent-hash), asked by declaring
     * one on a connection of its own: RabbitMQ 3.10 refuses an unknown type by closing the whole connection.
     */
    public static boolean hasExchangeType(String type, Map<String, Object> arguments) {
        try (RabbitAdmin admin = new RabbitAdmin()) {
            String probe = "probe." + type + "." + System.nanoTime();
            admin.channel.exchangeDeclare(probe, type, false, true, arguments);
            admin.channel.exchangeDelete(probe);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Runs the function on a fresh admin connection and returns what it returned. */
    public static <T> T withResult(ThrowingFunction<T> function) {
        try (RabbitAdmin admin = new RabbitAdmin()) {
            return function.apply(admin);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public interface ThrowingFunction<T> {
        T apply(RabbitAdmin admin) throws Exception;
    }

    public interface ThrowingConsumer {
        void accept(RabbitAdmin admin) throws Exception;
    }

    public void declare(String queue, Map<String, Object> arguments) throws Exception {
        channel.queueDeclare(queue, true, false, false, arguments);
    }

    /** A classic queue whose rejected messages go to {@code <queue>.dead}. */
    public void declareWithDeadLetterQueue(String queue) throws Exception {
        channel.queueDeclare(queue + ".dead", true, false, false, null);
        channel.queueDeclare(queue, true, false, false,
                Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", queue + ".dead"));
    }

    public void declareDirectExchangeBoundTo(String exchange, String queue, String routingKey) throws Exception {
        channel.exchangeDeclare(exchange, "direct", false, true, null);
        channel.queueBind(queue, exchange, routingKey);
    }

    public void deleteExchange(String exchange) {
        try {
            channel.exchangeDelete(exchange);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot delete exchange " + exchange, e);
        }
    }

    public void delete(String... queues) {
        for (String queue : queues) {
            try {
                channel.queueDelete(queue);
            } catch (Exception e) {
                throw new IllegalStateException("Cannot delete " + queue, e);
            }
        }
    }

    public void publish(String queue, String body) throws Exception {
        publish(queue, body, null);
    }

    public void publish(String queue, String body, String messageId) throws Exception {
        channel.basicPublish("", queue, new AMQP.BasicProperties.Builder().messageId(messageId).build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    public void publishWithHeaders(String queue, String body, String messageId, Map<String, Object> headers)
            throws Exception {
        channel.basicPublish("", queue, new AMQP.BasicProperties.Builder().messageId(messageId).headers(headers).build(),
                body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * From now on this admin's publishes are confirmed: call {@link #awaitConfirms()} before relying on them. Without
     * confirms, a quorum queue may never get the last messages of a batch whose connection closes right after it
     * (LoadAndFaultTest lost the last 19 of 25,000 that way).
     */
    public void confirmPublishes() throws Exception {
        channel.confirmSelect();
    }

    /** Waits until the broker confirmed every publish since {@link #confirmPublishes()}; fails if it refused one. */
    public void awaitConfirms() throws Exception {
        channel.waitForConfirmsOrDie(60_000);
    }

    /** Publishes a body as it is, with these properties. */
    public void publishRaw(String queue, byte[] body, AMQP.BasicProperties properties) throws Exception {
        channel.basicPublish("", queue, properties, body);
    }

    /** Ready messages (not the ones delivered and unsettled). */
    public long depth(String queue) {
        try {
            return channel.queueDeclarePassive(queue).getMessageCount();
        } catch (Exception e) {
            throw new IllegalStateException("No queue " + queue, e);
        }
    }

    public int consumers(String queue) {
        try {
            return channel.queueDeclarePassive(queue).getConsumerCount();
        } catch (Exception e) {
            throw new IllegalStateException("No queue " + queue, e);
        }
    }

    /** Empties a queue left by an earlier run, if there is one. */
    public void drainIfExists(String queue) throws Exception {
        if (exists(queue)) {
            channel.queuePurge(queue);
        }
    }

    public boolean exists(String queue) {
        try (Channel probe = connection.createChannel()) {
            probe.queueDeclarePassive(queue);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** Takes the head of the queue (acking it); null when it is empty. */
    public GetResponse take(String queue) throws Exception {
        return channel.basicGet(queue, true);
    }

    /** Takes every ready message off the queue (acking them). */
    public List<GetResponse> drain(String queue) throws Exception {
        List<GetResponse> taken = new ArrayList<>();
        GetResponse response;
        while ((response = channel.basicGet(queue, true)) != null) {
            taken.add(response);
        }
        return taken;
    }

    /** Runs rabbitmqctl, as an operator would, against the broker under test, and returns what it printed. */
    public static String rabbitmqctl(String... arguments) throws Exception {
        return ctl(WireBroker.CTL, arguments);
    }

    /**
     * rabbitmqctl as a given command reaches it (another broker than the one under test: {@code .ci/rabbitmq43 ctl});
     * fails with its output when it fails.
     */
    public static String ctl(List<String> ctl, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(ctl);
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            // A check built on an empty answer would pass without checking anything.
            throw new IllegalStateException(command + " failed: " + output);
        }
        return output;
    }

    /** The broker's connections (their {@code list_connections} lines) with this client-provided name. */
    public static List<String> connectionsNamed(String name) throws Exception {
        return rabbitmqctl("list_connections", "pid", "client_properties").lines()
                .filter(line -> line.contains("\"connection_name\",\"" + name + "\"")).toList();
    }

    /**
     * The states ({@code running}, {@code blocking}, {@code blocked}, ...) of the broker's connections with this
     * client-provided name.
     */
    public static List<String> connectionStates(String name) throws Exception {
        return rabbitmqctl("list_connections", "state", "client_properties").lines()
                .filter(line -> line.contains("\"connection_name\",\"" + name + "\""))
                .map(line -> line.strip().split("\\s+", 2)[0]).toList();
    }

    public static String body(GetResponse response) {
        return new String(response.getBody(), StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        connection.close();
    }
}
