package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.time.Duration;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;

/** {@link DirectReplyRequestsContract} on the in-process broker. */
class DirectReplyRequestsInProcessTest extends DirectReplyRequestsContract {

    private final InProcessServer server = new InProcessServer(new VirtualClock(0), InProcessServer.Version.V3_10);

    @Override
    BrokerConnection connect() {
        return server.connect();
    }

    @Override
    void quiet(java.util.function.BooleanSupplier holds) {
        server.awaitQuiet(Duration.ofSeconds(5));
        org.junit.jupiter.api.Assertions.assertTrue(holds.getAsBoolean());
    }

    @Override
    void stopBroker() {
        server.stop();
    }
}
