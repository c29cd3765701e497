package org.acme.subscriber.test.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.logging.Level;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A password going over plain-text {@code amqp://} to another machine is said, once, at WARN (only an unverified TLS
 * certificate was before). RabbitMQ is reached here through this machine's own non-loopback address (a forwarding
 * proxy listens there: the broker itself listens on the loopback only), so the node the client connects to
 * ({@code addresses}) is another address than the loopback, as it would be for a broker elsewhere. The password is not in the
 * WARN.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class PlaintextPasswordWarningTest {

    static final InetAddress OFF_LOOPBACK = nonLoopbackAddress();
    static final int PORT = ToxicProxy.forwarding(OFF_LOOPBACK, WireBroker.PORT);
    static final String HOST = OFF_LOOPBACK.getHostAddress();

    /** The url (credentials, virtual host) from the fixture; the node the client connects to is the proxy. */
    @RegisterExtension
    static final WireBroker broker = WireBroker.queues("t.plaintext.orders").givesUrl();

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handler.class, ToxicProxy.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", HOST + ":" + PORT)
            .setLogRecordPredicate(record -> record.getLevel().intValue() >= Level.WARNING.intValue()
                    && record.getMessage() != null && record.getMessage().contains("plain-text amqp://"))
            .assertLogRecords(records -> {
                assertEquals(1, records.size(), "one WARN for the address, however many connections go there");
                String message = String.format(records.get(0).getMessage(), records.get(0).getParameters());
                assertTrue(message.contains(HOST + ":" + PORT), message);
                assertFalse(message.contains("guest:guest"), message);
            });

    @Inject
    SubscriberStatus status;

    @Test
    void theApplicationRunsAndSaysItOnce() {
        assertTrue(status.notReady().isEmpty(), status.notReady().toString());
    }

    /** This machine's first IPv4 address off the loopback. */
    static InetAddress nonLoopbackAddress() {
        try {
            for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (network.isUp() && !network.isLoopback()) {
                    for (InetAddress address : Collections.list(network.getInetAddresses())) {
                        if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
                            return address;
                        }
                    }
                }
            }
        } catch (SocketException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("This machine has no IPv4 address off the loopback for the test to use");
    }

    public static class Handler {
        @Subscriber("t.plaintext.orders")
        void handle(String body) {
        }
    }
}
