package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.credentials.CredentialsProvider;

/** The provider is asked once per connection attempt, so each reconnection reads the current password. */
class ProvidedCredentialsTest {

    @Test
    void eachAttemptReadsTheProviderOnce() {
        List<String> passwords = new ArrayList<>(List.of("one", "two"));
        List<String> asked = new ArrayList<>();
        CredentialsProvider provider = new CredentialsProvider() {
            @Override
            public Map<String, String> getCredentials(String name) {
                asked.add(name);
                return Map.of(PASSWORD_PROPERTY_NAME, passwords.remove(0));
            }
        };
        ProvidedCredentials credentials = new ProvidedCredentials(provider, "rabbitmq", "app");
        assertEquals("app", credentials.getUsername());
        assertEquals("one", credentials.getPassword());
        assertEquals("app", credentials.getUsername());
        assertEquals("two", credentials.getPassword());
        assertEquals(List.of("rabbitmq", "rabbitmq"), asked);
    }

    @Test
    void noPasswordIsAClearError() {
        ProvidedCredentials credentials = new ProvidedCredentials(new CredentialsProvider() {
            @Override
            public Map<String, String> getCredentials(String name) {
                return Map.of(USER_PROPERTY_NAME, "app");
            }
        }, "rabbitmq", null);
        assertEquals("app", credentials.getUsername());
        IllegalStateException e = assertThrows(IllegalStateException.class, credentials::getPassword);
        assertEquals("The credentials provider gave no 'password' for quarkus.rabbitmq-subscriber.credentials-provider="
                + "rabbitmq", e.getMessage());
    }
}
