package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.Address;

/** The order a cluster's nodes are tried in: as listed, a node whose metadata store timed out last for a while. */
class NodeOrderTest {

    final Address a = new Address("127.0.0.1", 5711);
    final Address b = new Address("127.0.0.1", 5712);
    final Address c = new Address("127.0.0.1", 5713);
    final AtomicLong now = new AtomicLong(1_000);
    final NodeOrder order = new NodeOrder(List.of(a, b, c), now::get);

    @Test
    void triesTheNodesAsListedNeverShuffled() {
        assertEquals(List.of(a, b, c), order.getAddresses());
        for (int i = 0; i < 20; i++) {
            assertEquals(List.of(a, b, c), order.maybeShuffle(order.getAddresses()), "the first that answers is used");
        }
    }

    @Test
    void aNodeThatTimedOutIsTriedLastForAWhile() throws Exception {
        order.connectedTo(InetAddress.getByName("127.0.0.1"), 5712);
        assertEquals(b, order.avoidCurrent().orElseThrow());
        assertEquals(List.of(a, c, b), order.getAddresses(), "still tried, after the others");
        now.addAndGet(NodeOrder.AVOID_MILLIS - 1);
        assertEquals(List.of(a, c, b), order.getAddresses());
        now.addAndGet(1);
        assertEquals(List.of(a, b, c), order.getAddresses(), "back in its place");
    }

    @Test
    void twoNodesThatTimedOutKeepTheirListedOrderAtTheEnd() throws Exception {
        order.connectedTo(InetAddress.getByName("127.0.0.1"), 5713);
        order.avoidCurrent();
        order.connectedTo(InetAddress.getByName("127.0.0.1"), 5711);
        order.avoidCurrent();
        assertEquals(List.of(b, a, c), order.getAddresses());
    }

    @Test
    void nodesOnOnePortAreToldApartByTheirHost() throws Exception {
        Address first = new Address("127.0.0.1", 5672);
        Address second = new Address("127.0.0.2", 5672);
        NodeOrder samePort = new NodeOrder(List.of(first, second), now::get);
        samePort.connectedTo(InetAddress.getByName("127.0.0.2"), 5672);
        assertEquals(second, samePort.avoidCurrent().orElseThrow());
        assertEquals(List.of(first, second), samePort.getAddresses().subList(0, 2));
        assertEquals(first, samePort.getAddresses().get(0));
    }

    @Test
    void anUnknownNodeAvoidsNothing() throws Exception {
        assertTrue(order.avoidCurrent().isEmpty(), "not connected yet");
        order.connectedTo(InetAddress.getByName("127.0.0.1"), 5999);
        assertTrue(order.avoidCurrent().isEmpty());
        assertEquals(List.of(a, b, c), order.getAddresses());
    }
}
