package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.time.Duration;
import java.util.Optional;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerConnector;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;

/** {@link DirectReplyRequestsContract} on the local RabbitMQ ({@code -Drabbitmq.test.port=5682} for 4.0.5). */
@Tag("wire")
class DirectReplyRequestsOnRabbitMqTest extends DirectReplyRequestsContract {

    @RegisterExtension
    static final WireBroker broker = WireBroker.queues(QUEUE, NOWHERE);

    @Override
    BrokerConnection connect() {
        return BrokerConnector.connect(BrokerAddress.resolve(Optional.of(WireBroker.URL), null), "direct-reply-test",
                true);
    }

    /** Nothing tells when a delivery to another connection has happened: the condition holds for a while. */
    @Override
    void quiet(java.util.function.BooleanSupplier holds) {
        org.awaitility.Awaitility.await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(2))
                .until(holds::getAsBoolean);
    }

}
