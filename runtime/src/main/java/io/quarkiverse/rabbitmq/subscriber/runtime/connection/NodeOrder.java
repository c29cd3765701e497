package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

import com.rabbitmq.client.Address;
import com.rabbitmq.client.AddressResolver;

/**
 * The order in which a connection to a cluster tries its nodes ({@code quarkus.rabbitmq-subscriber.addresses}), at the
 * first connection and at every reconnection: as listed, so the first that answers is used (amqp-client's own list
 * shuffles it at every attempt), except that a node whose metadata store timed out on a declaration (a node cut off
 * from its cluster's majority: {@code MetadataStoreTimeout}) goes last for {@link #AVOID_MILLIS}. It stays in the list:
 * when no other node answers it is still tried.
 */
public final class NodeOrder implements AddressResolver {

    /** How long a node that timed out is tried last: long enough to outlast a partition's usual healing. */
    public static final long AVOID_MILLIS = 5 * 60_000;

    private final List<Address> nodes;
    private final LongSupplier millis;
    /** Nodes tried last, with when they timed out. */
    private final Map<Address, Long> avoided = new ConcurrentHashMap<>();
    /** The node the connection is on, when known. */
    private volatile Address current;

    public NodeOrder(List<Address> nodes, LongSupplier millis) {
        this.nodes = List.copyOf(nodes);
        this.millis = millis;
    }

    @Override
    public List<Address> getAddresses() {
        long now = millis.getAsLong();
        avoided.values().removeIf(since -> now - since >= AVOID_MILLIS);
        List<Address> ordered = new ArrayList<>(nodes.size());
        nodes.stream().filter(node -> !avoided.containsKey(node)).forEach(ordered::add);
        nodes.stream().filter(avoided::containsKey).forEach(ordered::add);
        return ordered;
    }

    /** Kept as listed: the first node that answers is the one used. */
    @Override
    public List<Address> maybeShuffle(List<Address> input) {
        return input;
    }

    public int size() {
        return nodes.size();
    }

    /** Records which listed node a connection (or a reconnection) reached, from the socket's remote end. */
    public void connectedTo(InetAddress address, int port) {
        current = find(address, port);
    }

    /** Puts the node the connection is on last; the node, where it is known. */
    public Optional<Address> avoidCurrent() {
        Address node = current;
        if (node != null) {
            avoided.put(node, millis.getAsLong());
        }
        return Optional.ofNullable(node);
    }

    private Address find(InetAddress address, int port) {
        List<Address> samePort = nodes.stream().filter(node -> node.getPort() == port).toList();
        if (samePort.size() <= 1) {
            return samePort.isEmpty() ? null : samePort.get(0);
        }
        for (Address node : samePort) {
            try {
                for (InetAddress resolved : InetAddress.getAllByName(node.getHost())) {
                    if (resolved.equals(address)) {
                        return node;
                    }
                }
            } catch (UnknownHostException e) {
                // not this one
            }
        }
        return null;
    }
}
