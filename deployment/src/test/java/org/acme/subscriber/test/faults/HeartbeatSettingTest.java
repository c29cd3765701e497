package org.acme.subscriber.test.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.Level;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@code quarkus.rabbitmq-subscriber.heartbeat} is what the connections ask RabbitMQ for (the runtime used to set its
 * own 30 s whatever was configured), and a confirm timeout shorter than two and a half heartbeats is said at startup:
 * on a connection that stalls without closing, its confirms would time out before the stall is found and count as
 * handler failures. (The url's {@code ?heartbeat=} winning over it, and the stall being found, are
 * {@link HalfOpenConnectionTest}'s.)
 */
@Tag("wire")
class HeartbeatSettingTest {

    static final String CONNECTION = "t-heartbeat-" + ProcessHandle.current().pid();

    @RegisterExtension
    static final WireBroker broker = WireBroker.queues("t.heartbeat.orders").givesUrl();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.heartbeat", "7s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.publisher.confirm-timeout", "10s")
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getMessage() != null && record.getMessage().contains("confirm-timeout"))
            .assertLogRecords(records -> {
                assertEquals(1, records.size(), "one WARN at startup");
                String message = String.format(records.get(0).getMessage(), records.get(0).getParameters());
                assertTrue(message.contains("shorter than two and a half heartbeats (PT7S each)"), message);
            });

    @Test
    void theConnectionsAskForTheConfiguredHeartbeat() throws Exception {
        List<String> ours = RabbitAdmin.rabbitmqctl("list_connections", "timeout", "client_properties").lines()
                .filter(line -> line.contains("\"connection_name\",\"" + CONNECTION)).toList();
        // The subscribers' connection and the publishing one.
        assertFalse(ours.isEmpty(), "no connection named " + CONNECTION);
        for (String line : ours) {
            assertTrue(line.startsWith("7\t"), "heartbeat (timeout) of " + line);
        }
    }

    public static class Handler {
        @Subscriber("t.heartbeat.orders")
        void handle(String body) {
        }
    }
}
