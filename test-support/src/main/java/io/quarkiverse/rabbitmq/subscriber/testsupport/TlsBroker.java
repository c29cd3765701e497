package io.quarkiverse.rabbitmq.subscriber.testsupport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The broker with a TLS listener the TLS tests connect to: RabbitMQ 4.0.5 from {@code .ci/rabbitmq4} on
 * {@code localhost:5691} ({@code -Drabbitmq.test.tls.port}; its stream protocol's TLS listener on 5563,
 * {@code -Drabbitmq.test.tls.stream-port}), with the certificates {@code .ci/tls-certs} made when it
 * started, in {@code /opt/rabbitmq4/etc/rabbitmq/tls} ({@code -Drabbitmq.test.tls.dir}): {@code ca.pem} (the CA that
 * signed the broker's certificate, issued for {@code localhost} only), {@code client.pem}/{@code client.key} (a client
 * certificate for {@code CN=tls-client}) and {@code other-ca.pem} (a CA that signed nothing the broker uses).
 * Registered before the application ({@code @Order(1)}): a class is skipped with the reason when the listener does
 * not answer, or fails where {@code -Drabbitmq.test.required=true}.
 */
public final class TlsBroker implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    public static final int PORT = Integer.getInteger("rabbitmq.test.tls.port", 5691);
    /** The stream protocol's TLS listener on the same node ({@code -Drabbitmq.test.tls.stream-port}). */
    public static final int STREAM_PORT = Integer.getInteger("rabbitmq.test.tls.stream-port", 5563);
    public static final Path DIR = Path.of(System.getProperty("rabbitmq.test.tls.dir", "/opt/rabbitmq4/etc/rabbitmq/tls"));

    private final List<String> queues;
    private final boolean streams;

    private TlsBroker(List<String> queues, boolean streams) {
        this.queues = queues;
        this.streams = streams;
    }

    /** A TLS test whose subscribers use these queues on the TLS node: deleted before the application starts and after. */
    public static TlsBroker queues(String... queues) {
        return new TlsBroker(List.of(queues), false);
    }

    /** The same, for a test that also reads streams over TLS: it needs the stream protocol's TLS listener too. */
    public TlsBroker needsStreams() {
        return new TlsBroker(queues, true);
    }

    /** A certificate or key file of {@link #DIR}, as a path for {@code quarkus.tls.*.pem.*}. */
    public static String file(String name) {
        return DIR.resolve(name).toString();
    }

    /** Runs rabbitmqctl against the node with the TLS listener ({@code .ci/rabbitmq4 ctl} unless told otherwise). */
    public static String rabbitmqctl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(ctl());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(command + " failed: " + output);
        }
        return output;
    }

    private static List<String> ctl() {
        String configured = System.getProperty("rabbitmq.test.tls.ctl");
        if (configured != null) {
            return List.of(configured.trim().split("\\s+"));
        }
        // The repository's script, found from the module the tests run in.
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path script = dir.resolve(".ci/rabbitmq4");
            if (Files.isExecutable(script)) {
                return List.of(script.toString(), "ctl");
            }
        }
        throw new IllegalStateException("No .ci/rabbitmq4 above " + Path.of("").toAbsolutePath()
                + ": set -Drabbitmq.test.tls.ctl");
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            return ConditionEvaluationResult.enabled("decided for the class");
        }
        String missing = missing(streams);
        if (missing == null || WireBroker.REQUIRED) {
            return ConditionEvaluationResult.enabled(missing == null ? "listening" : "required");
        }
        return ConditionEvaluationResult.disabled(missing + " (.ci/rabbitmq4 start runs it; "
                + "-Drabbitmq.test.required=true makes this a failure)");
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        String missing = missing(streams);
        if (missing != null) {
            throw new IllegalStateException(missing + " and -Drabbitmq.test.required is set");
        }
        deleteQueues();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (missing(streams) == null) {
            deleteQueues();
        }
    }

    private void deleteQueues() {
        for (String queue : queues) {
            try {
                rabbitmqctl("delete_queue", queue);
            } catch (Exception e) {
                // Not there: nothing to delete.
            }
        }
    }

    /** Why the TLS tests cannot run, or null. */
    private static String missing(boolean streams) {
        if (!Files.isReadable(DIR.resolve("ca.pem"))) {
            return "No test certificates in " + DIR;
        }
        String amqp = unanswered(PORT, "RabbitMQ TLS listener");
        return amqp != null || !streams ? amqp : unanswered(STREAM_PORT, "stream protocol TLS listener (rabbitmq_stream)");
    }

    private static String unanswered(int port, String what) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            return null;
        } catch (IOException e) {
            return "No " + what + " answers at localhost:" + port + " (" + e + ")";
        }
    }
}
