package org.acme.subscriber.test.codecs;

import org.acme.subscriber.test.codecs.proto.Order;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/** The codec scenarios on the in-process broker, which encodes and decodes with the same codecs. */
class CodecsInProcessTest extends CodecScenarios {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION).addPackage(Order.class.getPackage()))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.max-message-size", MAX_MESSAGE_SIZE);
}
