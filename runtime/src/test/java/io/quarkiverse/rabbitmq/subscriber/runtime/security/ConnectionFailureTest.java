package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertificateException;
import java.util.concurrent.atomic.AtomicLong;

import javax.net.ssl.SSLHandshakeException;

import org.junit.jupiter.api.Test;

import com.rabbitmq.client.AuthenticationFailureException;

/** What an operator reads for each way a connection fails, and how often. */
class ConnectionFailureTest {

    static Throwable handshake(String message, Throwable cause) {
        SSLHandshakeException e = new SSLHandshakeException(message);
        e.initCause(cause);
        return new IOException(e);
    }

    @Test
    void eachKindSaysWhatToChangeAndNeverThePassword() {
        ConnectionFailure refused = ConnectionFailure.of(new AuthenticationFailureException(
                "ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN"), "app", "rabbit:5672");
        assertEquals(ConnectionFailure.Kind.AUTHENTICATION_REFUSED, refused.kind());
        assertTrue(refused.text().contains("user 'app'"), refused.text());

        assertEquals(ConnectionFailure.Kind.AUTHENTICATION_REFUSED, ConnectionFailure.of(
                new AuthenticationFailureException("refused"), null, "rabbit:5671").kind());

        ConnectionFailure untrusted = ConnectionFailure.of(handshake("PKIX path building failed: "
                + "sun.security.provider.certpath.SunCertPathBuilderException: unable to find valid certification path "
                + "to requested target", null), "app", "rabbit:5671");
        assertEquals(ConnectionFailure.Kind.CERTIFICATE_NOT_TRUSTED, untrusted.kind());

        ConnectionFailure mismatch = ConnectionFailure.of(handshake("No subject alternative names matching IP address "
                + "127.0.0.1 found",
                new CertificateException("No subject alternative names matching IP address "
                        + "127.0.0.1 found")),
                "app", "127.0.0.1:5671");
        assertEquals(ConnectionFailure.Kind.HOST_NAME_MISMATCH, mismatch.kind());
        assertTrue(mismatch.text().contains("'127.0.0.1:5671'"), mismatch.text());

        assertEquals(ConnectionFailure.Kind.CLIENT_CERTIFICATE_REFUSED, ConnectionFailure.of(handshake(
                "Received fatal alert: certificate_required", null), null, "rabbit:5671").kind());
        assertEquals(ConnectionFailure.Kind.UNREACHABLE, ConnectionFailure.of(new ConnectException(
                "Connection refused"), "app", "rabbit:5672").kind());
        assertEquals(ConnectionFailure.Kind.TLS_FAILED, ConnectionFailure.of(handshake("something else", null), "app",
                "rabbit:5671").kind());
        assertFalse(ConnectionFailure.of(new AuthenticationFailureException("x"), "app", "h").text()
                .contains("secret"));
    }

    /** A url ending in '/' asks for the virtual host "": the refusal names it and says how to write the default one. */
    @Test
    void aRefusedVirtualHostIsNamed() {
        com.rabbitmq.client.ShutdownSignalException closed = new com.rabbitmq.client.ShutdownSignalException(true,
                false, null, null) {
            @Override
            public String getMessage() {
                return "connection error; reply-code=530, reply-text=NOT_ALLOWED - vhost  not found";
            }
        };
        ConnectionFailure empty = ConnectionFailure.of(closed, "guest", "localhost:5672", "");
        assertEquals(ConnectionFailure.Kind.VIRTUAL_HOST_REFUSED, empty.kind());
        assertTrue(empty.text().contains("virtual host '' for user 'guest'"), empty.text());
        assertTrue(empty.text().contains("written %2F"), empty.text());
        ConnectionFailure billing = ConnectionFailure.of(closed, "guest", "localhost:5672", "billing");
        assertTrue(billing.text().contains("virtual host 'billing'"), billing.text());
        assertFalse(billing.text().contains("%2F"), billing.text());
    }

    @Test
    void theFirstOfEachKindIsLoggedThenOnePerSpacing() {
        AtomicLong now = new AtomicLong();
        FailurePacer pacer = new FailurePacer(30_000, now::get);
        ConnectionFailure refused = new ConnectionFailure(ConnectionFailure.Kind.AUTHENTICATION_REFUSED, "refused");
        ConnectionFailure away = new ConnectionFailure(ConnectionFailure.Kind.UNREACHABLE, "away");
        assertTrue(pacer.shouldLog(refused));
        now.set(1_000);
        assertFalse(pacer.shouldLog(refused));
        now.set(2_000);
        assertFalse(pacer.shouldLog(refused));
        now.set(31_000);
        assertTrue(pacer.shouldLog(refused));
        assertEquals(2, pacer.suppressedSinceLast());
        now.set(32_000);
        assertTrue(pacer.shouldLog(away), "another kind is news");
        pacer.reset();
        assertTrue(pacer.shouldLog(away), "after a success, the same kind is news again");
    }
}
