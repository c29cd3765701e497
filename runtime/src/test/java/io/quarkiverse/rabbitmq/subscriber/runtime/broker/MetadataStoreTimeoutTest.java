package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A declaration a node in a minority could not write: told apart by the words RabbitMQ 4.0 and 4.3 close with. */
class MetadataStoreTimeoutTest {

    /** RabbitMQ 4.3.6, measured on a partitioned node of a three-node cluster. */
    static final String ON_4_3 = "INTERNAL_ERROR - Could not declare queue 'probe.q2' in vhost '/' on node "
            + "'k1@localhost' because the metadata store operation timed out";

    @Test
    void rabbitMq43NamesTheNode() {
        MetadataStoreTimeout timeout = MetadataStoreTimeout.of(541, ON_4_3).orElseThrow();
        assertEquals("k1@localhost", timeout.node());
        assertEquals("RabbitMQ node 'k1@localhost'", timeout.describeNode());
    }

    @Test
    void rabbitMq40SaysItLess() {
        MetadataStoreTimeout timeout = MetadataStoreTimeout.of(541, "INTERNAL_ERROR - failed to declare exchange "
                + "'direct' in vhost '/' because the operation timed out").orElseThrow();
        assertEquals("", timeout.node());
        assertEquals("the RabbitMQ node", timeout.describeNode());
    }

    @Test
    void otherRefusalsAreNot() {
        assertTrue(MetadataStoreTimeout.of(541, "INTERNAL_ERROR").isEmpty());
        assertTrue(MetadataStoreTimeout.of(406, "PRECONDITION_FAILED - timed out").isEmpty());
        assertTrue(MetadataStoreTimeout.of(541, null).isEmpty());
    }

    @Test
    void foundAmongTheCauses() {
        Exception wrapped = new IllegalStateException("Cannot declare queue 'q'",
                new BrokerException(541, ON_4_3, null));
        assertEquals("k1@localhost", MetadataStoreTimeout.in(wrapped).orElseThrow().node());
        assertTrue(MetadataStoreTimeout.in(new IllegalStateException("other")).isEmpty());
        assertTrue(MetadataStoreTimeout.in(new BrokerException(404, "NOT_FOUND", null)).isEmpty());
    }
}
