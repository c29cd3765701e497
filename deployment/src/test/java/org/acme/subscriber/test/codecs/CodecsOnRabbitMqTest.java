package org.acme.subscriber.test.codecs;

import org.acme.subscriber.test.codecs.proto.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/** The codec scenarios on RabbitMQ: the Protobuf round trip and the application's codec on a real broker. */
@Tag("wire")
class CodecsOnRabbitMqTest extends CodecScenarios {

    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final WireBroker broker = WireBroker.queues(CodecHandlers.QUEUES).givesUrl();

    @RegisterExtension
    @org.junit.jupiter.api.Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION).addPackage(Order.class.getPackage()))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.max-message-size", MAX_MESSAGE_SIZE);
}
