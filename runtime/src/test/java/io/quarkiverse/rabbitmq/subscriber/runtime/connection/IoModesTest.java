package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig.CopyChannel;

class IoModesTest {

    @Test
    void unsetTheSubscribersReadBlockingAndThePublisherQueuesItsFrames() {
        assertEquals(new IoModes(false, true), IoModes.of(Optional.empty(), CopyChannel.PUBLISHING_CONNECTION));
    }

    @Test
    void subscribersThatPublishOnTheirOwnConnectionKeepNio() {
        // An alarm stops RabbitMQ reading that connection: a blocking write there would hold the event loop.
        assertEquals(new IoModes(true, true), IoModes.of(Optional.empty(), CopyChannel.DELIVERY_CHANNEL));
    }

    @Test
    void aConfiguredModeHoldsForBoth() {
        assertEquals(new IoModes(false, false), IoModes.of(Optional.of(false), CopyChannel.DELIVERY_CHANNEL));
        assertEquals(new IoModes(true, true), IoModes.of(Optional.of(true), CopyChannel.PUBLISHING_CONNECTION));
    }
}
