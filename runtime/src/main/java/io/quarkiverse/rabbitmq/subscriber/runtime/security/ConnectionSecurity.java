package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import javax.net.ssl.SSLContext;

import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.DefaultSaslConfig;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings.SaslMechanism;
import io.quarkus.credentials.runtime.CredentialsProviderFinder;
import io.quarkus.tls.TlsConfigurationRegistry;

/**
 * How a connection proves who it is and checks whom it talks to: its TLS ({@link TlsSettings}), its login mechanism
 * ({@code PLAIN} with a user and password, or {@code EXTERNAL} with the client certificate) and where the password
 * comes from (the configuration, or a Quarkus {@code CredentialsProvider} read at every connection). Applied to every
 * connection the runtime opens, the subscribers' and the publisher's.
 */
public final class ConnectionSecurity {

    public static final ConnectionSecurity PLAIN_TEXT = new ConnectionSecurity(TlsSettings.NONE, SaslMechanism.PLAIN,
            null);

    private final TlsSettings tls;
    private final SaslMechanism mechanism;
    private final com.rabbitmq.client.impl.CredentialsProvider credentials;

    /** @param credentials a provider read at each connection, or null for the configured user and password */
    public ConnectionSecurity(TlsSettings tls, SaslMechanism mechanism,
            com.rabbitmq.client.impl.CredentialsProvider credentials) {
        if (mechanism == SaslMechanism.EXTERNAL && !tls.hasClientCertificate()) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.sasl-mechanism=external logs in with the "
                    + "client certificate, and " + (tls.enabled() ? tls.description() + " has none" : "there is no TLS")
                    + ": use amqps:// with a TLS configuration that has a key store (quarkus.tls.<name>.key-store.*, "
                    + "named by quarkus.rabbitmq-subscriber.tls-configuration-name)");
        }
        this.tls = tls;
        this.mechanism = mechanism;
        this.credentials = credentials;
    }

    /**
     * The security the configuration asks for: {@code tls-configuration-name}, {@code tls.trust-all},
     * {@code sasl-mechanism}, {@code credentials-provider} and {@code credentials-provider-name}.
     *
     * @param tls whether the broker's address asks for TLS ({@code amqps})
     * @param username the user the address names, null where it names none
     * @param registry Quarkus's TLS registry, or null where there is none
     */
    public static ConnectionSecurity of(BrokerSettings config, boolean tls, String username,
            TlsConfigurationRegistry registry) {
        TlsSettings settings = TlsSettings.choose(tls, config.tlsConfigurationName(), config.tls().trustAll(),
                registry);
        com.rabbitmq.client.impl.CredentialsProvider credentials = null;
        if (config.credentialsProvider().isPresent()) {
            io.quarkus.credentials.CredentialsProvider provider;
            try {
                provider = CredentialsProviderFinder.find(config.credentialsProviderName().orElse(null));
            } catch (RuntimeException e) {
                throw new IllegalStateException("quarkus.rabbitmq-subscriber.credentials-provider is set, but "
                        + config.credentialsProviderName().map(name -> "no CredentialsProvider bean is @Named(\"" + name
                                + "\") (quarkus.rabbitmq-subscriber.credentials-provider-name)")
                                .orElse("the application has no CredentialsProvider bean")
                        + ": " + e.getMessage(), e);
            }
            credentials = new ProvidedCredentials(provider, config.credentialsProvider().get(), username);
        } else if (config.credentialsProviderName().isPresent()) {
            throw new IllegalStateException("quarkus.rabbitmq-subscriber.credentials-provider-name is set without "
                    + "credentials-provider: set quarkus.rabbitmq-subscriber.credentials-provider to what the provider "
                    + "is asked for");
        }
        return new ConnectionSecurity(settings, config.saslMechanism(), credentials);
    }

    /**
     * Who logs in, for messages: null for {@code EXTERNAL} (the certificate names the user), the credentials
     * provider's latest user, else the one the broker's address names ({@code guest} where it names none).
     */
    public String user(String username) {
        if (external()) {
            return null;
        }
        if (credentials instanceof ProvidedCredentials provided) {
            return provided.user();
        }
        return username == null ? "guest" : username;
    }

    /** The credentials provider read at each connection, or null for the configured user and password. */
    public com.rabbitmq.client.impl.CredentialsProvider credentials() {
        return credentials;
    }

    public TlsSettings tls() {
        return tls;
    }

    public boolean external() {
        return mechanism == SaslMechanism.EXTERNAL;
    }

    /**
     * Sets the factory up. TLS is set explicitly, never left to {@code setUri}'s defaults (which trusted every
     * certificate in amqp-client before 5.25): the context comes from {@link TlsSettings} at each connection, and
     * host-name verification is on unless the settings trust all.
     */
    public void applyTo(ConnectionFactory factory) {
        if (tls.enabled()) {
            SSLContext first = create();
            factory.setSocketFactory(first.getSocketFactory());
            factory.setSslContextFactory(connectionName -> create());
            if (tls.verifyHostName()) {
                factory.enableHostnameVerification();
            }
        }
        if (mechanism == SaslMechanism.EXTERNAL) {
            factory.setSaslConfig(DefaultSaslConfig.EXTERNAL);
        }
        if (credentials != null) {
            factory.setCredentialsProvider(credentials);
        }
    }

    private SSLContext create() {
        try {
            return tls.context().create();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create the TLS context from " + tls.description() + ": " + e, e);
        }
    }

    /** What a connection uses, for its INFO line. */
    public String describe() {
        return (tls.enabled() ? tls.description() : "no TLS") + ", " + (external() ? "EXTERNAL login (the client "
                + "certificate)" : "PLAIN login") + (credentials != null ? " with a credentials provider" : "");
    }
}
