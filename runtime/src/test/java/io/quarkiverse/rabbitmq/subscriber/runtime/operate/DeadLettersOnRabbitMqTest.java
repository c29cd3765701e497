package io.quarkiverse.rabbitmq.subscriber.runtime.operate;

import java.util.Optional;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/** {@link DeadLettersContract} on the local RabbitMQ ({@code -Drabbitmq.test.port=5682} for 4.0.5). */
@Tag("wire")
class DeadLettersOnRabbitMqTest extends DeadLettersContract {

    @RegisterExtension
    static final WireBroker broker = WireBroker.queues(DEAD, REFUNDS, PAYMENTS);

    @Override
    BrokerConnection connect() {
        return BrokerConnector.connect(BrokerAddress.resolve(Optional.of(WireBroker.URL), null), "dead-letters-test",
                true);
    }
}
