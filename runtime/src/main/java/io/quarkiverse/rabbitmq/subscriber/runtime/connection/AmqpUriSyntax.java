package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The syntax of an AMQP URI: taking {@code amqp://user:password@host:port/virtual-host?query} apart, reading a
 * {@code host:port}, and percent-encoding and -decoding its parts. Kept apart from {@link BrokerAddress}, which decides
 * where the broker is and writes the address out, so that the rules of the text (the user information runs to the
 * last {@code @}, a lone {@code %} stays as written, the scheme's default port) are in one place. A message about a
 * URI that cannot work names the key it came from and what is wrong, never the URI as written (it may hold a
 * password).
 */
final class AmqpUriSyntax {

    private AmqpUriSyntax() {
    }

    /**
     * What an AMQP URI says, decoded: the user null when the URI has no user information, the password null when that
     * has no {@code :}, the virtual host null when the URI has no path, the query (raw) null when none or empty.
     */
    record Parts(boolean tls, String host, int port, String username, String password, String virtualHost,
            String query) {
    }

    /** A host (a name, an IPv4 address or a bracketed IPv6 one) and a port, the scheme's default when left out. */
    record HostAndPort(String host, int port) {
    }

    /** Takes an AMQP URI apart; {@code key} names where it came from in the messages of a URI that cannot work. */
    static Parts parse(String uri, String key) {
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
        HostAndPort hostAndPort = hostAndPort(location, tls, key);
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
        return new Parts(tls, hostAndPort.host(), hostAndPort.port(), user, pass,
                path == null ? null : decode(path), query == null || query.isEmpty() ? null : query);
    }

    /**
     * Reads {@code host}, {@code host:port}, {@code [ipv6]} or {@code [ipv6]:port}; without a port, 5672, or 5671
     * under TLS. {@code key} names where it came from in the messages of one that cannot work.
     */
    static HostAndPort hostAndPort(String text, boolean tls, String key) {
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
            return new HostAndPort(host, tls ? BrokerAddress.AMQPS_PORT : BrokerAddress.AMQP_PORT);
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

    /** The failure of a setting that cannot be used: {@code key} names the setting, {@code problem} what is wrong. */
    static IllegalStateException invalid(String key, String problem) {
        return new IllegalStateException(key + " cannot be used: " + problem);
    }

    /** Percent-encodes a part of the URI (a space as {@code %20}, not {@code +}). */
    static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Percent-decoding that keeps a '%' not followed by two hex digits as it is (a password may hold one). */
    static String decode(String part) {
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
}
