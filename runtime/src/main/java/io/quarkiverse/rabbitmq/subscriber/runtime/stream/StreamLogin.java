package io.quarkiverse.rabbitmq.subscriber.runtime.stream;

import javax.net.ssl.SSLContext;

import com.rabbitmq.stream.EnvironmentBuilder;
import com.rabbitmq.stream.sasl.DefaultSaslConfiguration;
import com.rabbitmq.stream.sasl.DefaultUsernamePasswordCredentialsProvider;
import com.rabbitmq.stream.sasl.UsernamePasswordCredentialsProvider;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.BrokerAddress;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.ConnectionSecurity;
import io.quarkiverse.rabbitmq.subscriber.runtime.security.TlsSettings;

/**
 * The stream protocol's connections prove who they are as the AMQP connections do ({@link ConnectionSecurity}): the
 * same TLS (the TLS configuration's context, the broker's host name verified unless it trusts all) and the same login
 * (PLAIN with the configured user and password or with the credentials provider, read again at each connection the
 * stream client opens; EXTERNAL with the client certificate).
 */
final class StreamLogin {

    private StreamLogin() {
    }

    static void apply(EnvironmentBuilder builder, ConnectionSecurity security, BrokerAddress address) {
        TlsSettings tls = security.tls();
        if (tls.enabled()) {
            builder.tls().sslContext(nettyContext(tls)).hostnameVerification(tls.verifyHostName());
        }
        if (security.external()) {
            builder.saslConfiguration(DefaultSaslConfiguration.EXTERNAL);
        } else if (security.credentials() != null) {
            builder.credentialsProvider(new Provided(security.credentials()));
        } else {
            builder.credentialsProvider(new DefaultUsernamePasswordCredentialsProvider(
                    address.username() == null ? "guest" : address.username(),
                    address.password() == null ? "guest" : address.password()));
        }
    }

    /**
     * The TLS configuration's context for the stream client's Netty channels. Made once: the stream client keeps one
     * context for every connection it opens, so a certificate reloaded later is read at the next start.
     */
    private static JdkSslContext nettyContext(TlsSettings tls) {
        SSLContext context;
        try {
            context = tls.context().create();
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create the stream protocol's TLS context from " + tls.description()
                    + ": " + e, e);
        }
        return new JdkSslContext(context, true, null, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED, ClientAuth.NONE, null, false);
    }

    /** The credentials provider's user and password, asked for at each login, user first (as amqp-client does). */
    private record Provided(com.rabbitmq.client.impl.CredentialsProvider provider)
            implements
                UsernamePasswordCredentialsProvider {

        @Override
        public String getUsername() {
            return provider.getUsername();
        }

        @Override
        public String getPassword() {
            return provider.getPassword();
        }
    }
}
