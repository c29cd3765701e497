package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.ArrayList;
import java.util.List;

import com.rabbitmq.client.Address;

import java.net.URI;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;

/**
 * Where the broker is: our own {@code url} key, else the keys Quarkus's RabbitMQ Dev Services set, else the local
 * default. Kept apart from the connection itself so the decision can be tested without a broker.
 */
public final class BrokerAddress {

    static final String DEFAULT_URL = "amqp://guest:guest@localhost:5672";

    private final String uri;
    /** The cluster's nodes ({@code quarkus.rabbitmq-subscriber.addresses}); empty: the URI's host. */
    private final List<Address> nodes;

    private BrokerAddress(String uri) {
        this(uri, List.of());
    }

    private BrokerAddress(String uri, List<Address> nodes) {
        this.uri = uri;
        this.nodes = nodes;
    }

    /**
     * The same broker reached through any of these nodes ({@code host:port}, port 5672 when left out): the client
     * connects to the first that answers and, after a cut, reconnects to whichever answers. Credentials, virtual host
     * and TLS still come from the URI.
     */
    public BrokerAddress withNodes(List<String> addresses) {
        List<Address> parsed = new ArrayList<>();
        for (String address : addresses) {
            String trimmed = address.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            try {
                Address node = Address.parseAddress(trimmed);
                parsed.add(node.getPort() == -1 ? new Address(node.getHost(), 5672) : node);
            } catch (RuntimeException e) {
                throw new IllegalStateException("quarkus.rabbitmq-subscriber.addresses: '" + trimmed
                        + "' is not host:port", e);
            }
        }
        return new BrokerAddress(uri, List.copyOf(parsed));
    }

    /** The cluster's nodes, in order; empty when the URI's host is the broker. */
    public List<Address> nodes() {
        return nodes;
    }

    public static BrokerAddress resolve(Optional<String> url, Config config) {
        if (url.isPresent() && !url.get().isBlank()) {
            return new BrokerAddress(url.get().trim());
        }
        Optional<String> host = config.getOptionalValue("rabbitmq-host", String.class);
        if (host.isEmpty()) {
            return new BrokerAddress(DEFAULT_URL);
        }
        int port = config.getOptionalValue("rabbitmq-port", Integer.class).orElse(5672);
        String user = config.getOptionalValue("rabbitmq-username", String.class).orElse("guest");
        String password = config.getOptionalValue("rabbitmq-password", String.class).orElse("guest");
        String vhost = config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/");
        boolean tls = config.getOptionalValue("rabbitmq-ssl", Boolean.class).orElse(false);
        String encodedVhost = "/".equals(vhost) ? "" : "/" + encode(vhost);
        return new BrokerAddress((tls ? "amqps" : "amqp") + "://" + encode(user) + ":" + encode(password) + "@" + host.get()
                + ":" + port + encodedVhost);
    }

    private static String encode(String part) {
        return java.net.URLEncoder.encode(part, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The URI to connect with, credentials included. */
    public String uri() {
        return uri;
    }

    /** The URI without its password, for messages. */
    public String redacted() {
        try {
            URI parsed = new URI(uri);
            String userInfo = parsed.getRawUserInfo();
            if (userInfo == null || !userInfo.contains(":")) {
                return uri;
            }
            String user = userInfo.substring(0, userInfo.indexOf(':'));
            return uri.replace(userInfo + "@", user + ":***@");
        } catch (Exception e) {
            return "<unparseable broker URI>";
        }
    }

    /** For messages: the redacted URI, and the nodes when there are several. */
    public String describe() {
        if (nodes.isEmpty()) {
            return redacted();
        }
        return redacted() + " through " + nodes.stream().map(Address::toString).toList();
    }

    @Override
    public String toString() {
        return describe();
    }
}
