package io.quarkiverse.rabbitmq.subscriber.runtime.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings.SaslMechanism;
import io.quarkus.tls.TlsConfiguration;
import io.quarkus.tls.TlsConfigurationRegistry;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.SSLOptions;
import io.vertx.core.net.TrustOptions;

/** Which TLS each configuration gets; the broker's certificate and host name are verified unless trust-all says so. */
class TlsSettingsTest {

    static TlsConfiguration configuration(boolean trustStore, boolean keyStore, boolean trustAll) {
        return new TlsConfiguration() {
            public KeyStore getKeyStore() {
                return keyStore ? empty() : null;
            }

            public KeyCertOptions getKeyStoreOptions() {
                return null;
            }

            public KeyStore getTrustStore() {
                return trustStore ? empty() : null;
            }

            public TrustOptions getTrustStoreOptions() {
                return null;
            }

            public SSLOptions getSSLOptions() {
                return null;
            }

            public SSLContext createSSLContext() throws Exception {
                return SSLContext.getDefault();
            }

            public boolean isTrustAll() {
                return trustAll;
            }

            public Optional<String> getHostnameVerificationAlgorithm() {
                return Optional.empty();
            }

            public boolean usesSni() {
                return false;
            }

            public boolean reload() {
                return false;
            }
        };
    }

    static KeyStore empty() {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            return store;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static TlsConfigurationRegistry registry(Map<String, TlsConfiguration> named, TlsConfiguration fallback) {
        Map<String, TlsConfiguration> all = new HashMap<>(named);
        return new TlsConfigurationRegistry() {
            public Optional<TlsConfiguration> get(String name) {
                return Optional.ofNullable(all.get(name));
            }

            public Optional<TlsConfiguration> getDefault() {
                return Optional.ofNullable(fallback);
            }

            public void register(String name, TlsConfiguration configuration) {
                all.put(name, configuration);
            }
        };
    }

    @Test
    void amqpHasNoTlsAndRefusesTlsSettings() {
        assertFalse(TlsSettings.choose(false, Optional.empty(), false, registry(Map.of(), null)).enabled());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TlsSettings.choose(false, Optional.of("rabbit"), false, registry(Map.of(), null)));
        assertTrue(e.getMessage().contains("the broker's url is amqp://, without TLS: write amqps://"), e.getMessage());
    }

    @Test
    void aNamedConfigurationIsVerifiedAndKnowsItsClientCertificate() {
        TlsSettings tls = TlsSettings.choose(true, Optional.of("rabbit"), false,
                registry(Map.of("rabbit", configuration(true, true, false)), null));
        assertTrue(tls.enabled());
        assertTrue(tls.verifyHostName());
        assertTrue(tls.hasClientCertificate());
        assertEquals("TLS configuration 'rabbit', with a client certificate", tls.description());
    }

    @Test
    void aMissingNameIsNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TlsSettings.choose(true, Optional.of("nope"), false, registry(Map.of(), null)));
        assertEquals("quarkus.rabbitmq-subscriber.tls-configuration-name=nope names no TLS configuration: configure "
                + "quarkus.tls.nope.trust-store.* (and .key-store.* for a client certificate)", e.getMessage());
    }

    @Test
    void withoutANameTheRegistrysDefaultThenTheJvms() {
        assertEquals("the default TLS configuration (quarkus.tls.*)", TlsSettings.choose(true, Optional.empty(), false,
                registry(Map.of(), configuration(true, false, false))).description());
        TlsSettings jvm = TlsSettings.choose(true, Optional.empty(), false,
                registry(Map.of(), configuration(false, false, false)));
        assertEquals("the JVM's trust store", jvm.description());
        assertTrue(jvm.verifyHostName());
    }

    @Test
    void trustAllIsUnverifiedAndSaysSo() throws Exception {
        TlsSettings ours = TlsSettings.choose(true, Optional.empty(), true, registry(Map.of(), null));
        assertTrue(ours.trustsAll());
        assertTrue(ours.description().contains("WITHOUT verifying"), ours.description());
        assertTrue(ours.context().create() != null);
        assertTrue(TlsSettings.choose(true, Optional.of("dev"), false,
                registry(Map.of("dev", configuration(false, false, true)), null)).trustsAll());
    }

    @Test
    void externalNeedsAClientCertificate() {
        TlsSettings withoutKey = TlsSettings.choose(true, Optional.of("rabbit"), false,
                registry(Map.of("rabbit", configuration(true, false, false)), null));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new ConnectionSecurity(withoutKey, SaslMechanism.EXTERNAL, null));
        assertTrue(e.getMessage().contains("has none"), e.getMessage());
    }
}
