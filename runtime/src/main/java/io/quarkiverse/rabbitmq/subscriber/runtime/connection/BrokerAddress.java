package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.eclipse.microprofile.config.Config;

import com.rabbitmq.client.Address;

/**
 * Where the broker is: our own {@code url} key, else the keys Quarkus's RabbitMQ Dev Services set, else the local
 * default; the {@code username} and {@code password} keys override the credentials of either. Kept apart from the
 * connection itself so the decision can be tested without a broker.
 * <p>
 * The URI is taken apart here, once, and everything else is built from its parts: the URI amqp-client gets (each part
 * percent-encoded again) and every message (never with the password). A password holding an unencoded {@code @},
 * {@code /}, {@code ?} or {@code #} is still read as the user wrote it: the user information runs to the last
 * {@code @}. A message about a URI that cannot work names the key and what is wrong, never the URI as written.
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
            address = parse(url.get(), URL_KEY);
        } else {
            Optional<String> host = config.getOptionalValue("rabbitmq-host", String.class);
            if (host.isEmpty()) {
                address = parse(DEFAULT_URL, "the default broker address");
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

    /** Takes an AMQP URI apart; {@code key} names where it came from in the messages of a URI that cannot work. */
    static BrokerAddress parse(String uri, String key) {
        String text = uri.trim();
        int schemeEnd = text.indexOf("://");
        if (schemeEnd <= 0) {
            throw invalid(key, "it is not an AMQP URI: write amqp://user:password@host:port/virtual-host "
                    + "(amqps:// for TLS)");
        }
        String scheme = text.substring(0, schemeEnd).toLowerCase(Locale.ROOT);
        if (!scheme.equals("amqp") && !scheme.equals("amqps")) {
            throw invalid(key, "its scheme must be amqp or amqps");
        }
        boolean tls = scheme.equals("amqps");
        String rest = text.substring(schemeEnd + 3);
        // The user information runs to the last '@': a password may hold '@', '/', '?' or '#' unencoded.
        int at = rest.lastIndexOf('@');
        String userInfo = at >= 0 ? rest.substring(0, at) : null;
        String location = rest.substring(at + 1);
        int fragment = location.indexOf('#');
        if (fragment >= 0) {
            location = location.substring(0, fragment);
        }
        String query = null;
        int question = location.indexOf('?');
        if (question >= 0) {
            query = location.substring(question + 1);
            location = location.substring(0, question);
        }
        String path = null;
        int slash = location.indexOf('/');
        if (slash >= 0) {
            path = location.substring(slash + 1);
            location = location.substring(0, slash);
        }
        HostAndPort hostAndPort = HostAndPort.parse(location, tls, key);
        if (path != null && path.contains("/")) {
            throw invalid(key, "its path holds more than the virtual host: write a '/' in a virtual host as %2F");
        }
        String user = null;
        String pass = null;
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            user = decode(colon >= 0 ? userInfo.substring(0, colon) : userInfo);
            pass = colon >= 0 ? decode(userInfo.substring(colon + 1)) : null;
        }
        return new BrokerAddress(tls, hostAndPort.host(), hostAndPort.port(), user, pass,
                path == null ? null : decode(path), query == null || query.isEmpty() ? null : query, List.of());
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
                throw invalid(ADDRESSES_KEY, "entry " + position + " is not host:port (credentials and the virtual "
                        + "host go in " + URL_KEY + " or the username and password keys)");
            }
            HostAndPort node = HostAndPort.parse(trimmed, tls, ADDRESSES_KEY + " (entry " + position + ")");
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
            uri.append(encode(username));
            if (password != null) {
                uri.append(':').append(encode(password));
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

    /** {@code host:port}, for messages. */
    public String hostAndPort() {
        return host + ":" + port;
    }

    /** The URI without its password (nor its query, which may hold other settings), for messages. */
    public String redacted() {
        StringBuilder uri = new StringBuilder(tls ? "amqps://" : "amqp://");
        if (username != null) {
            uri.append(encode(username));
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
            uri.append('/').append(encode(virtualHost));
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

    private static IllegalStateException invalid(String key, String problem) {
        return new IllegalStateException(key + " cannot be used: " + problem);
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Percent-decoding that keeps a '%' not followed by two hex digits as it is (a password may hold one). */
    private static String decode(String part) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(part.length());
        byte[] raw = part.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == '%' && i + 2 < raw.length && hex(raw[i + 1]) >= 0 && hex(raw[i + 2]) >= 0) {
                bytes.write(hex(raw[i + 1]) * 16 + hex(raw[i + 2]));
                i += 2;
            } else {
                bytes.write(raw[i]);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static int hex(byte b) {
        return Character.digit((char) b, 16);
    }

    /** A host (a name, an IPv4 address or a bracketed IPv6 one) and a port, the scheme's default when left out. */
    private record HostAndPort(String host, int port) {
        static HostAndPort parse(String text, boolean tls, String key) {
            String host = text;
            String port = null;
            if (text.startsWith("[")) {
                int close = text.indexOf(']');
                if (close < 0) {
                    throw invalid(key, "its IPv6 host has no closing ']'");
                }
                host = text.substring(0, close + 1);
                String after = text.substring(close + 1);
                if (after.startsWith(":")) {
                    port = after.substring(1);
                } else if (!after.isEmpty()) {
                    throw invalid(key, "its host is followed by something else than :port");
                }
            } else {
                int colon = text.lastIndexOf(':');
                if (colon >= 0) {
                    host = text.substring(0, colon);
                    port = text.substring(colon + 1);
                }
            }
            if (host.isEmpty() || host.equals("[]")) {
                throw invalid(key, "it names no host after the last '@' (the user and password run up to it: "
                        + "amqp://user:password@host:port/virtual-host)");
            }
            if (port == null || port.isEmpty()) {
                return new HostAndPort(host, tls ? AMQPS_PORT : AMQP_PORT);
            }
            try {
                int number = Integer.parseInt(port);
                if (number >= 1 && number <= 65_535) {
                    return new HostAndPort(host, number);
                }
            } catch (NumberFormatException e) {
                // below
            }
            throw invalid(key, "its port is not a number from 1 to 65535");
        }
    }
}
