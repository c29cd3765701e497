package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The runtime without the in-process broker's artifact, as a production application has it: none is available, and
 * asking for one (broker=in-process) fails naming the artifact that brings it.
 */
class EmbeddedBrokerAbsentTest {

    @Test
    void aProductionClassPathHasNoEmbeddedBrokerAndSaysWhichArtifactBringsOne() {
        assertFalse(EmbeddedBroker.available());
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> EmbeddedBroker.start(null, "3.10"));
        assertTrue(refused.getMessage().contains("quarkus-test-rabbitmq-subscriber"), refused.getMessage());
        assertTrue(refused.getMessage().contains("quarkus.rabbitmq-subscriber.url"), refused.getMessage());
    }
}
