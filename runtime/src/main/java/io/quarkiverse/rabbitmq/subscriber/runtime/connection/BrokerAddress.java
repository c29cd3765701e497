package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;

import com.rabbitmq.client.Address;

/**
 * Where the broker is: our own {@code url} key, else the keys Quarkus's RabbitMQ Dev Services set, else the local
 * default; the {@code username} and {@code password} keys override the credentials of either. Kept apart from the
 * connection itself so the decision can be tested without a broker.
 * <p>
 * The URI is taken apart once (by {@code AmqpUriSyntax}), and everything else is built from its parts: the URI
 * amqp-client gets (each part percent-encoded again) and every message (never with the password). A password holding
 * an unencoded {@code @}, {@code /}, {@code ?} or {@code #} is still read as the user wrote it: the user information
 * runs to the last {@code @}. A message about a URI that cannot work names the key and what is wrong, never the URI as
 * written.
 */
public final class BrokerAddress {

    static final String DEFAULT_URL = "amqp://guest:guest@localhost:5672";
    static final String URL_KEY = "quarkus.rabbitmq-subscriber.url";
    static final String ADDRESSES_KEY = "quarkus.rabbitmq-subscriber.addresses";
    static final int AMQP_PORT = 5672;
    static final int AMQPS_PORT = 5671;

    private final boolean tls;
    private final String host;
    private final int port;
    /** Null: amqp-client's default (guest). */
    private final String username;
    /** Null: amqp-client's default (guest). */
    private final String password;
    /** Null: the default virtual host, {@code /}. */
    private final String virtualHost;
    /** The URI's raw query (amqp-client reads {@code heartbeat}, {@code connection_timeout}, ...); null when none. */
    private final String query;
    /** The cluster's nodes ({@code quarkus.rabbitmq-subscriber.addresses}); empty: the URI's host. */
    private final List<Address> nodes;

    private BrokerAddress(boolean tls, String host, int port, String username, String password, String virtualHost,
            String query, List<Address> nodes) {
        this.tls = tls;
        this.host = host;
        this.port = port;
        this.username = username;
        this.password = password;
        this.virtualHost = virtualHost;
        this.query = query;
        this.nodes = nodes;
    }

    public static BrokerAddress resolve(Optional<String> url, Config config) {
        return resolve(url, Optional.empty(), Optional.empty(), config);
    }

    /**
     * @param username {@code quarkus.rabbitmq-subscriber.username}: wins over the URI's and Dev Services'
     * @param password {@code quarkus.rabbitmq-subscriber.password}: wins over the URI's and Dev Services'
     */
    public static BrokerAddress resolve(Optional<String> url, Optional<String> username, Optional<String> password,
            Config config) {
        BrokerAddress address;
        if (url.isPresent() && !url.get().isBlank()) {
            address = fromUri(url.get(), URL_KEY);
        } else {
            Optional<String> host = config.getOptionalValue("rabbitmq-host", String.class);
            if (host.isEmpty()) {
                address = fromUri(DEFAULT_URL, "the default broker address");
            } else {
                boolean tls = config.getOptionalValue("rabbitmq-ssl", Boolean.class).orElse(false);
                String vhost = config.getOptionalValue("rabbitmq-virtual-host", String.class).orElse("/");
                address = new BrokerAddress(tls, host.get(),
                        config.getOptionalValue("rabbitmq-port", Integer.class).orElse(tls ? AMQPS_PORT : AMQP_PORT),
                        config.getOptionalValue("rabbitmq-username", String.class).orElse("guest"),
                        config.getOptionalValue("rabbitmq-password", String.class).orElse("guest"),
                        "/".equals(vhost) ? null : vhost, null, List.of());
            }
        }
        return new BrokerAddress(address.tls, address.host, address.port, username.orElse(address.username),
                password.orElse(address.password), address.virtualHost, address.query, address.nodes);
    }

    /** The address an AMQP URI names; {@code key} names where it came from in the messages of one that cannot work. */
    private static BrokerAddress fromUri(String uri, String key) {
        AmqpUriSyntax.Parts parts = AmqpUriSyntax.parse(uri, key);
        return new BrokerAddress(parts.tls(), parts.host(), parts.port(), parts.username(), parts.password(),
                parts.virtualHost(), parts.query(), List.of());
    }

    /**
     * The same broker reached through any of these nodes ({@code host:port}; without a port, 5672, or 5671 under
     * TLS): the client connects to the first that answers and, after a cut, reconnects to whichever answers.
     * Credentials, virtual host and TLS still come from the URI.
     */
    public BrokerAddress withNodes(List<String> addresses) {
        List<Address> parsed = new ArrayList<>();
        int position = 0;
        for (String address : addresses) {
            position++;
            String trimmed = address.trim();
            if (trimmed.isEmpty()) {
                continue;
            }
            if (trimmed.contains("@") || trimmed.contains("/")) {
                // Never echoed: it may hold credentials.
                throw AmqpUriSyntax.invalid(ADDRESSES_KEY, "entry " + position + " is not host:port (credentials and "
                        + "the virtual host go in " + URL_KEY + " or the username and password keys)");
            }
            AmqpUriSyntax.HostAndPort node = AmqpUriSyntax.hostAndPort(trimmed, tls,
                    ADDRESSES_KEY + " (entry " + position + ")");
            parsed.add(new Address(node.host(), node.port()));
        }
        return new BrokerAddress(tls, host, port, username, password, virtualHost, query, List.copyOf(parsed));
    }

    /** The cluster's nodes, in order; empty when the URI's host is the broker. */
    public List<Address> nodes() {
        return nodes;
    }

    /** The URI to connect with, credentials included, every part percent-encoded. */
    public String uri() {
        StringBuilder uri = new StringBuilder(tls ? "amqps://" : "amqp://");
        if (username != null) {
            uri.append(AmqpUriSyntax.encode(username));
            if (password != null) {
                uri.append(':').append(AmqpUriSyntax.encode(password));
            }
            uri.append('@');
        }
        appendLocation(uri);
        if (query != null) {
            uri.append('?').append(query);
        }
        return uri.toString();
    }

    /**
     * {@link #uri()} with the {@code amqp} scheme whatever the URL said: TLS is set up apart
     * ({@code ConnectionSecurity}), never by amqp-client's {@code setUri} defaults. The port stays the URL's (5671 for
     * {@code amqps} without one).
     */
    public String plainUri() {
        String uri = uri();
        return tls ? "amqp://" + uri.substring("amqps://".length()) : uri;
    }

    /** A parameter of the URI's query ({@code heartbeat} in {@code ?heartbeat=5}), as written; empty when absent. */
    public java.util.Optional<String> queryParameter(String name) {
        if (query == null) {
            return java.util.Optional.empty();
        }
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            if (key.equals(name)) {
                return java.util.Optional.of(equals < 0 ? "" : pair.substring(equals + 1));
            }
        }
        return java.util.Optional.empty();
    }

    /** Whether the URL is {@code amqps://}. */
    public boolean tls() {
        return tls;
    }

    /** The user it logs in as, or null for amqp-client's default (guest). */
    public String username() {
        return username;
    }

    /** The hosts it connects to: the nodes', or the URI's. */
    public List<String> hosts() {
        return nodes.isEmpty() ? List.of(host) : nodes.stream().map(Address::getHost).toList();
    }

    /**
     * The stream protocol's URI for the same broker ({@code rabbitmq-stream+tls://host:port/vhost} over TLS): the host
     * (the first node's, when there are several) and virtual host of this address, on the stream port. It carries no
     * credentials: those are given apart, as the connection's security says (a user and password, a credentials
     * provider, or the client certificate). The stream client finds the other nodes itself.
     */
    public String streamUri(int streamPort) {
        return (tls ? "rabbitmq-stream+tls://" : "rabbitmq-stream://") + streamHost() + ':' + streamPort + '/'
                + AmqpUriSyntax.encode(virtualHost == null ? "/" : virtualHost);
    }

    /** The virtual host it opens, {@code /} by default. */
    public String virtualHost() {
        return virtualHost == null ? "/" : virtualHost;
    }

    /** The password it logs in with, or null for amqp-client's default (guest). */
    public String password() {
        return password;
    }

    /** The host the stream protocol is reached on, with its port, for messages. */
    public String streamHostAndPort(int streamPort) {
        return streamHost() + ":" + streamPort;
    }

    private String streamHost() {
        return nodes.isEmpty() ? host : nodes.get(0).getHost();
    }

    /** {@code host:port}, for messages. */
    public String hostAndPort() {
        return host + ":" + port;
    }

    /** The URI without its password (nor its query, which may hold other settings), for messages. */
    public String redacted() {
        StringBuilder uri = new StringBuilder(tls ? "amqps://" : "amqp://");
        if (username != null) {
            uri.append(AmqpUriSyntax.encode(username));
            if (password != null) {
                uri.append(":***");
            }
            uri.append('@');
        }
        return appendLocation(uri).toString();
    }

    private StringBuilder appendLocation(StringBuilder uri) {
        uri.append(host).append(':').append(port);
        if (virtualHost != null) {
            uri.append('/').append(AmqpUriSyntax.encode(virtualHost));
        }
        return uri;
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
