package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;

/** {@link DeadLettersContract} on the in-process broker. */
class DeadLettersInProcessTest extends DeadLettersContract {

    private final InProcessServer server = new InProcessServer(new VirtualClock(0), InProcessServer.Version.V4);

    @Override
    BrokerConnection connect() {
        return server.connect();
    }

    @Override
    void stopBroker() {
        server.stop();
    }
}
