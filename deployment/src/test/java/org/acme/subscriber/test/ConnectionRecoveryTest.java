package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The broker drops the connection (as on a restart or a network cut): the runtime reconnects, its consumer comes
 * back, and messages published meanwhile are consumed. The connection is closed the way an operator would, with
 * rabbitmqctl.
 */
class ConnectionRecoveryTest {

    static final String QUEUE = "t.recovery";
    static final String CONNECTION = "recovery-test-" + ProcessHandle.current().pid();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setAfterAllCustomizer(ConnectionRecoveryTest::deleteQueue)
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, RabbitAdmin.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", RabbitAdmin.URL)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .setBeforeAllCustomizer(() -> RabbitAdmin.with(admin -> admin.delete(QUEUE)));

    /** After the application stopped, so no consumer of it sees the queues go. */
    static void deleteQueue() {
        RabbitAdmin.with(admin -> admin.delete(QUEUE));
    }

    @Inject
    Handler handler;

    @Test
    void consumesAgainAfterTheBrokerClosedTheConnection() throws Exception {
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "before"));
        await().until(() -> handler.received.contains("before"));

        closeConnection(CONNECTION);
        RabbitAdmin.with(admin -> admin.publish(QUEUE, "after"));
        await().atMost(Duration.ofSeconds(30)).until(() -> handler.received.contains("after"));
        RabbitAdmin.with(admin -> await().until(() -> admin.depth(QUEUE) == 0));
    }

    /** Closes the broker side of the connection with this client-provided name. */
    static void closeConnection(String name) throws Exception {
        List<String> connections = RabbitAdmin.connectionsNamed(name);
        if (connections.size() != 1) {
            throw new AssertionError("expected one connection named " + name + ", found " + connections);
        }
        String pid = connections.get(0).substring(0, connections.get(0).indexOf('	'));
        RabbitAdmin.rabbitmqctl("close_connection", pid, "closed by test");
    }

    public static class Handler {
        final List<String> received = new CopyOnWriteArrayList<>();

        @Subscriber(QUEUE)
        void handle(String body) {
            received.add(body);
        }
    }
}
