package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/**
 * A connection the broker closed waits for amqp-client's recovery to open it again; closing it then must stop that
 * recovery. It did not (the close was skipped for a connection that was not open), so an application refused at
 * startup by a connection error (the delayed-message exchange declared without its plugin) left a connection of its
 * name open behind it, two seconds later.
 */
@Tag("wire")
class ClosedWhileRecoveringTest {

    @RegisterExtension
    static final WireBroker broker = WireBroker.queues();

    @Test
    void aConnectionClosedWhileItWaitsToRecoverStaysClosed() throws Exception {
        String name = "closed-while-recovering-" + ProcessHandle.current().pid();
        // Its recovery opens it again two seconds after the broker closed it.
        BrokerConnection connection = BrokerConnector.connect(BrokerAddress.resolve(Optional.of(WireBroker.URL), null),
                name, true);
        try {
            List<String> listed = RabbitAdmin.connectionsNamed(name);
            String pid = listed.get(0).strip().split("\\s+", 2)[0];
            RabbitAdmin.rabbitmqctl("close_connection", pid, "closed by " + getClass().getSimpleName());
            await().atMost(Duration.ofSeconds(10)).until(() -> !connection.isOpen());
        } finally {
            connection.close();
        }
        await().during(Duration.ofSeconds(4)).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                .until(() -> RabbitAdmin.connectionsNamed(name).isEmpty());
    }
}
