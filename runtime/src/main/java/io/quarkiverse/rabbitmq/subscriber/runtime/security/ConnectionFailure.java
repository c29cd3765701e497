package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.Locale;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import com.rabbitmq.client.AuthenticationFailureException;
import com.rabbitmq.client.PossibleAuthenticationFailureException;
import com.rabbitmq.client.ShutdownSignalException;

/**
 * Why a connection to RabbitMQ could not be made, as an operator needs to read it: the kind (a refused login, a
 * refused virtual host, a certificate the client does not trust, a host name the certificate does not carry, a client
 * certificate the broker refused, a host that does not answer) and a sentence that says what to change. Built from
 * the exception and its causes, never from a URI: no password reaches the text.
 */
public record ConnectionFailure(Kind kind, String text) {

    public enum Kind {
        AUTHENTICATION_REFUSED,
        VIRTUAL_HOST_REFUSED,
        CERTIFICATE_NOT_TRUSTED,
        HOST_NAME_MISMATCH,
        CLIENT_CERTIFICATE_REFUSED,
        TLS_FAILED,
        UNREACHABLE,
        OTHER
    }

    /**
     * @param failure what the client threw
     * @param user the user it logged in as (null for EXTERNAL: the certificate names it)
     * @param host the host it connected to, as configured
     */
    public static ConnectionFailure of(Throwable failure, String user, String host) {
        return of(failure, user, host, null);
    }

    /** @param virtualHost the virtual host it asked for, as the url names it (null: not known) */
    public static ConnectionFailure of(Throwable failure, String user, String host, String virtualHost) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof AuthenticationFailureException
                    || cause instanceof PossibleAuthenticationFailureException) {
                return new ConnectionFailure(Kind.AUTHENTICATION_REFUSED, user == null
                        ? "the broker refused the login with the client certificate (EXTERNAL): is there a user named "
                                + "as the certificate's common name, and is rabbitmq_auth_mechanism_ssl enabled?"
                        : "the broker refused the login of user '" + user + "': wrong user or password (a rotated "
                                + "password the configuration or credentials provider does not have yet?)");
            }
            String message = String.valueOf(cause.getMessage());
            if (cause instanceof ShutdownSignalException && message.contains("NOT_ALLOWED")) {
                return new ConnectionFailure(Kind.VIRTUAL_HOST_REFUSED, "the broker refused access to the virtual host"
                        + (virtualHost == null ? "" : " '" + virtualHost + "'")
                        + (user == null ? "" : " for user '" + user + "'") + ": grant the user permissions there "
                        + "(rabbitmqctl set_permissions -p <vhost> ...) or fix the virtual host in the url"
                        // amqp://host/ names the virtual host "", not the default one, "/".
                        + ("".equals(virtualHost) ? " (a url ending in '/' names the empty virtual host; the default "
                                + "one, '/', is written %2F, or leave the path out)" : ""));
            }
            if (cause instanceof CertificateException && message.toLowerCase(Locale.ROOT).contains("name")
                    && (message.contains("match") || message.contains("subject alternative"))) {
                return new ConnectionFailure(Kind.HOST_NAME_MISMATCH, "the broker's certificate does not name the "
                        + "host '" + host + "' (host-name verification: " + message + "); connect with a name the "
                        + "certificate carries, or have it issued for this one");
            }
            if (cause instanceof CertPathBuilderException || cause instanceof CertPathValidatorException
                    || message.contains("PKIX path") || message.contains("unable to find valid certification path")) {
                return new ConnectionFailure(Kind.CERTIFICATE_NOT_TRUSTED, "the broker's certificate is not trusted: "
                        + "its CA is not in the trust store (quarkus.tls.<name>.trust-store, named by "
                        + "quarkus.rabbitmq-subscriber.tls-configuration-name)");
            }
            if (cause instanceof SSLException && (message.contains("bad_certificate")
                    || message.contains("certificate_required") || message.contains("unknown_ca")
                    || message.contains("certificate_unknown") || message.contains("access_denied"))) {
                return new ConnectionFailure(Kind.CLIENT_CERTIFICATE_REFUSED, "the broker refused the client's "
                        + "certificate (" + message + "): give a certificate its CA trusts "
                        + "(quarkus.tls.<name>.key-store)");
            }
            if (cause instanceof ConnectException || cause instanceof NoRouteToHostException
                    || cause instanceof UnknownHostException || cause instanceof SocketTimeoutException) {
                return new ConnectionFailure(Kind.UNREACHABLE, "the broker does not answer at " + host + " ("
                        + cause.getClass().getSimpleName() + ": " + message + ")");
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLHandshakeException || cause instanceof SSLException) {
                return new ConnectionFailure(Kind.TLS_FAILED, "the TLS handshake failed: " + cause.getMessage());
            }
        }
        return new ConnectionFailure(Kind.OTHER, String.valueOf(failure));
    }

    @Override
    public String toString() {
        return text;
    }
}
