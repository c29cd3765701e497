package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity;

/** A password over plain-text amqp:// is said at WARN when it leaves this machine, and only then. */
class PlaintextPasswordTest {

    static final ConnectionSecurity PLAIN = ConnectionSecurity.PLAIN_TEXT;

    @Test
    void offThisMachineInPlainTextIsSaid() {
        assertTrue(sent("amqp://app:secret@rabbit.prod.internal:5672"));
        assertTrue(sent("amqp://app:secret@10.0.0.7"));
        assertTrue(PlaintextPassword.sentOffMachine(address("amqp://app:secret@localhost")
                .withNodes(java.util.List.of("localhost:5672", "10.0.0.8:5672")), PLAIN), "one node elsewhere");
    }

    @Test
    void loopbackTlsAndCertificateLoginAreNot() {
        assertFalse(sent("amqp://guest:guest@localhost:5672"));
        assertFalse(sent("amqp://guest:guest@127.0.0.1:5672"));
        assertFalse(sent("amqp://guest:guest@[::1]:5672"));
        assertFalse(sent("amqps://app:secret@rabbit.prod.internal"), "TLS (EXTERNAL logins need it too)");
    }

    private static boolean sent(String url) {
        return PlaintextPassword.sentOffMachine(address(url), PLAIN);
    }

    private static BrokerAddress address(String url) {
        return BrokerAddress.resolve(Optional.of(url), null);
    }
}
