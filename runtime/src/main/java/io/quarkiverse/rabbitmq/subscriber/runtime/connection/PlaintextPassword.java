package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jboss.logging.Logger;

import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity;

/**
 * A password sent over plain-text {@code amqp://} to another machine can be read by anyone on the network path: AMQP's
 * PLAIN login carries it as it is. That is fine on the loopback interface (a broker beside the application, the tests)
 * and wrong anywhere else, so it is said once, at WARN, per broker address. A host name other than {@code localhost}
 * counts as another machine: it is not resolved here (a lookup could block), and what it names may change.
 */
final class PlaintextPassword {

    private static final Logger LOG = Logger.getLogger(PlaintextPassword.class);
    /** Addresses already warned of, so a reconnection or the publisher's connection does not say it again. */
    private static final Set<String> WARNED = ConcurrentHashMap.newKeySet();

    private PlaintextPassword() {
    }

    /** Whether connecting to this address sends a password in plain text off this machine. */
    static boolean sentOffMachine(BrokerAddress address, ConnectionSecurity security) {
        return !address.tls() && !security.external()
                && address.hosts().stream().anyMatch(host -> !isLoopback(host));
    }

    static void warnIfSent(BrokerAddress address, ConnectionSecurity security, String connectionName) {
        if (sentOffMachine(address, security) && WARNED.add(address.describe())) {
            LOG.warnf("Connection '%s' logs in to RabbitMQ at %s with a password over plain-text amqp://: anyone on the "
                    + "network path can read it. Use amqps:// (quarkus.rabbitmq-subscriber.url, with "
                    + "tls-configuration-name) for a broker on another machine", connectionName, address.describe());
        }
    }

    static boolean isLoopback(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        return name.equals("localhost") || name.endsWith(".localhost") || name.startsWith("127.")
                || name.equals("::1") || name.equals("0:0:0:0:0:0:0:1");
    }
}
