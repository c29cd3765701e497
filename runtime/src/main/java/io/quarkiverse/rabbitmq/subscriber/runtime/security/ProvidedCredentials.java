package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import java.util.Map;

import io.quarkus.credentials.CredentialsProvider;

/**
 * amqp-client's credentials, read from a Quarkus {@code CredentialsProvider} at every connection attempt, first and
 * after each cut: a password rotated in a vault is used by the next reconnection, without a restart. amqp-client asks
 * for the user, then the password, for each attempt: the user's question fetches the credentials, and the password's
 * answer comes from that same fetch.
 */
public final class ProvidedCredentials implements com.rabbitmq.client.impl.CredentialsProvider {

    private final CredentialsProvider provider;
    private final String name;
    private final String configuredUser;
    private volatile Map<String, String> fetched;
    /** The user of the latest attempt, for messages. */
    private volatile String lastUser;

    /**
     * @param name {@code credentials-provider}: what the provider is asked for
     * @param configuredUser the user of the url or the username key, when the provider gives none
     */
    public ProvidedCredentials(CredentialsProvider provider, String name, String configuredUser) {
        this.provider = provider;
        this.name = name;
        this.configuredUser = configuredUser;
    }

    @Override
    public String getUsername() {
        Map<String, String> credentials = fetch();
        fetched = credentials;
        String user = credentials.get(CredentialsProvider.USER_PROPERTY_NAME);
        lastUser = user != null ? user : configuredUser != null ? configuredUser : "guest";
        return lastUser;
    }

    /** The user the latest attempt logged in as (before any: the configured one). */
    public String user() {
        String user = lastUser;
        return user != null ? user : configuredUser != null ? configuredUser : "guest";
    }

    @Override
    public String getPassword() {
        Map<String, String> credentials = fetched;
        fetched = null;
        if (credentials == null) {
            credentials = fetch();
        }
        String password = credentials.get(CredentialsProvider.PASSWORD_PROPERTY_NAME);
        if (password == null) {
            throw new IllegalStateException("The credentials provider gave no '"
                    + CredentialsProvider.PASSWORD_PROPERTY_NAME + "' for quarkus.rabbitmq-subscriber."
                    + "credentials-provider=" + name);
        }
        return password;
    }

    private Map<String, String> fetch() {
        Map<String, String> credentials = provider.getCredentials(name);
        if (credentials == null) {
            throw new IllegalStateException("The credentials provider answered nothing for quarkus.rabbitmq-subscriber."
                    + "credentials-provider=" + name);
        }
        return credentials;
    }
}
