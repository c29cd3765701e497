package org.acme.docs.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkus.tls.runtime.config.TlsBucketConfig;
import io.quarkus.tls.runtime.config.TlsConfig;
import io.smallrye.config.SmallRyeConfig;

/**
 * The Security page's samples are configuration only, for brokers and certificates that exist in the reader's setup,
 * not here: each file is read as Quarkus reads application.properties, into the extension's configuration and the
 * TLS registry's, so that every key is one of theirs and every value converts, and the values are the page's.
 */
class SecuritySamplesTest {

    @Test
    void tlsThroughTheRegistry() {
        SmallRyeConfig config = ConfigSamples.load("docs/security-tls.properties");
        SubscriberConfig subscriber = config.getConfigMapping(SubscriberConfig.class);
        assertEquals("amqps://app@rabbit.example.com:5671/orders", subscriber.defaultBroker().url().orElseThrow());
        assertEquals("rabbit", subscriber.defaultBroker().tlsConfigurationName().orElseThrow());
        assertEquals(List.of(Path.of("certs/company-ca.pem")),
                rabbit(config).trustStore().orElseThrow().pem().orElseThrow().certs().orElseThrow());
    }

    @Test
    void aClientCertificateWithTheExternalLogin() {
        SmallRyeConfig config = ConfigSamples.load("docs/security-external.properties");
        SubscriberConfig subscriber = config.getConfigMapping(SubscriberConfig.class);
        assertEquals("EXTERNAL", subscriber.defaultBroker().saslMechanism().name());
        assertEquals("rabbit", subscriber.defaultBroker().tlsConfigurationName().orElseThrow());
        var keyCert = rabbit(config).keyStore().orElseThrow().pem().orElseThrow().keyCerts().get("app");
        assertEquals(Path.of("certs/app.pem"), keyCert.cert());
        assertEquals(Path.of("certs/app.key"), keyCert.key());
    }

    @Test
    void credentialsFromACredentialsProvider() {
        SubscriberConfig subscriber = ConfigSamples.load("docs/security-credentials.properties")
                .getConfigMapping(SubscriberConfig.class);
        assertEquals("rabbitmq", subscriber.defaultBroker().credentialsProvider().orElseThrow());
        assertEquals("vault", subscriber.defaultBroker().credentialsProviderName().orElseThrow());
    }

    @Test
    void whereRepliesMayGo() {
        SubscriberConfig subscriber = ConfigSamples.load("docs/security-replies.properties")
                .getConfigMapping(SubscriberConfig.class);
        assertEquals(List.of("quote-replies.*", "amq.gen-*"), subscriber.replies().allowedQueues().orElseThrow());
    }

    /** The check itself: a key that is no property of the extension fails, naming it. */
    @Test
    void aKeyTheExtensionDoesNotHaveIsRefused() {
        IllegalStateException none = assertThrows(IllegalStateException.class,
                () -> ConfigSamples.load("docs/no-such-sample.properties"));
        assertTrue(none.getMessage().contains("not on the class path"), none.getMessage());
        Exception misspelt = assertThrows(Exception.class, () -> ConfigSamples.of("misspelt",
                Map.of("quarkus.rabbitmq-subscriber.tls-config-name", "rabbit")));
        assertTrue(String.valueOf(misspelt.getMessage()).contains("quarkus.rabbitmq-subscriber.tls-config-name"),
                misspelt.toString());
    }

    private static TlsBucketConfig rabbit(SmallRyeConfig config) {
        return config.getConfigMapping(TlsConfig.class).namedCertificateConfig().get("rabbit");
    }
}
