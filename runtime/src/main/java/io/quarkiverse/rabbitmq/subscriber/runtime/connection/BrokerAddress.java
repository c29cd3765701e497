package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

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

    private BrokerAddress(String uri) {
        this.uri = uri;
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

    @Override
    public String toString() {
        return redacted();
    }
}
