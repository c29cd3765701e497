package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import java.net.Socket;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Optional;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;

/**
 * Which TLS a connection uses, decided once from the configuration: none ({@code amqp://}); a Quarkus TLS registry
 * configuration named by {@code quarkus.rabbitmq-subscriber.tls-configuration-name} (its trust store, and its key
 * store for a client certificate); the registry's default configuration, or the JVM's trust store, for
 * {@code amqps://} without a name; or, for development only, no verification at all
 * ({@code quarkus.rabbitmq-subscriber.tls.trust-all}, or a registry configuration with {@code trust-all}). Except
 * there, the broker's certificate and host name are always verified, whatever the amqp-client version's defaults.
 *
 * @param context the context for each new connection (read again at each reconnection, so a reloaded certificate is
 *        used), or null without TLS
 * @param verifyHostName whether the broker's certificate must name the host connected to
 * @param hasClientCertificate whether the context holds a key store, for the {@code EXTERNAL} login
 * @param description what is used, for messages
 */
public record TlsSettings(ContextSource context, boolean verifyHostName, boolean hasClientCertificate,
        String description) {

    /** A fresh SSL context for each connection attempt. */
    public interface ContextSource {
        SSLContext create() throws Exception;
    }

    static final String NAME_KEY = "quarkus.rabbitmq-subscriber.tls-configuration-name";
    static final String TRUST_ALL_KEY = "quarkus.rabbitmq-subscriber.tls.trust-all";

    public static final TlsSettings NONE = new TlsSettings(null, false, false, "no TLS");

    public boolean enabled() {
        return context != null;
    }

    /** Without verification: a WARN at every connection. */
    public boolean trustsAll() {
        return context != null && !verifyHostName;
    }

    /**
     * @param tls whether the URL is {@code amqps://}
     * @param name {@code tls-configuration-name}
     * @param trustAll {@code tls.trust-all}
     * @param registry Quarkus's TLS registry
     */
    public static TlsSettings choose(boolean tls, Optional<String> name, boolean trustAll,
            TlsConfigurationRegistry registry) {
        if (!tls) {
            if (name.isPresent() || trustAll) {
                throw new IllegalStateException((name.isPresent() ? NAME_KEY + "=" + name.get() : TRUST_ALL_KEY)
                        + " is set, but the broker's url is amqp://, without TLS: write amqps:// (RabbitMQ's TLS port "
                        + "is 5671 by default)");
            }
            return NONE;
        }
        if (trustAll) {
            return trustingAll(TRUST_ALL_KEY);
        }
        if (name.isPresent()) {
            TlsConfiguration configuration = registry.get(name.get()).orElseThrow(() -> new IllegalStateException(
                    NAME_KEY + "=" + name.get() + " names no TLS configuration: configure quarkus.tls." + name.get()
                            + ".trust-store.* (and .key-store.* for a client certificate)"));
            return of(configuration, "TLS configuration '" + name.get() + "'");
        }
        Optional<TlsConfiguration> fallback = registry == null ? Optional.empty() : registry.getDefault();
        if (fallback.isPresent() && (fallback.get().getTrustStore() != null || fallback.get().getKeyStore() != null
                || fallback.get().isTrustAll())) {
            return of(fallback.get(), "the default TLS configuration (quarkus.tls.*)");
        }
        return new TlsSettings(SSLContext::getDefault, true, false, "the JVM's trust store");
    }

    private static TlsSettings of(TlsConfiguration configuration, String described) {
        if (configuration.isTrustAll()) {
            return trustingAll(described + " with trust-all");
        }
        return new TlsSettings(configuration::createSSLContext, true, configuration.getKeyStore() != null,
                described + (configuration.getKeyStore() != null ? ", with a client certificate" : ""));
    }

    private static TlsSettings trustingAll(String why) {
        return new TlsSettings(() -> {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] { new TrustingAll() }, new SecureRandom());
            return context;
        }, false, false, "TLS WITHOUT verifying the broker's certificate or host name (" + why + ")");
    }

    /**
     * Accepts every certificate and host name: for {@code trust-all} only, which warns at every connection. An
     * extended trust manager, since the JDK wraps a plain one in a check of the host name whenever the connection asks
     * for it (amqp-client's NIO mode always does).
     */
    private static final class TrustingAll extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
