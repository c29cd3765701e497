package org.acme.docs.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDevServicesBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.runtime.configuration.MemorySizeConverter;
import io.quarkus.tls.runtime.config.TlsConfig;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.common.MapBackedConfigSource;

/**
 * Reads a properties sample of the guide the way Quarkus reads {@code application.properties}: into the extension's
 * configuration mappings ({@code quarkus.rabbitmq-subscriber.*}: build time, run time, Dev Services) and the TLS
 * registry's ({@code quarkus.tls.*}), each value converted to its type. A key that maps to no property of those (a
 * typo, a key that does not exist) or a value that does not convert fails, naming it. Nothing connects: the samples
 * name brokers and certificate files that exist only in the reader's setup. Used by the tests of every page whose
 * samples are configuration only.
 */
public final class ConfigSamples {

    private ConfigSamples() {
    }

    /**
     * The sample's properties, as a loaded configuration with these profiles active ({@code %dev.} keys with
     * {@code "dev"}); fails naming every key or value that is not right.
     */
    public static SmallRyeConfig load(String resource, String... profiles) {
        Map<String, String> properties = new HashMap<>();
        read(resource).forEach((key, value) -> properties.put((String) key, (String) value));
        if (properties.isEmpty()) {
            throw new IllegalStateException(resource + " holds no property");
        }
        return of(resource, properties, profiles);
    }

    /** These properties, as a loaded configuration; fails naming every key or value that is not right. */
    public static SmallRyeConfig of(String name, Map<String, String> properties, String... profiles) {
        for (String key : properties.keySet()) {
            String property = key.startsWith("%") ? key.substring(key.indexOf('.') + 1) : key;
            if (!property.startsWith("quarkus.rabbitmq-subscriber.") && !property.startsWith("quarkus.tls.")) {
                throw new IllegalStateException(name + ": " + key + " is neither the extension's nor the TLS "
                        + "registry's, so this check cannot tell whether it exists");
            }
        }
        return new SmallRyeConfigBuilder()
                .addDefaultInterceptors()
                .withProfiles(List.of(profiles))
                .withSources(new MapBackedConfigSource(name, properties) {
                })
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(MemorySize.class, 200, new MemorySizeConverter())
                .withMapping(SubscriberConfig.class)
                .withMapping(SubscriberBuildTimeConfig.class)
                .withMapping(SubscriberDevServicesBuildTimeConfig.class)
                .withMapping(TlsConfig.class)
                .withValidateUnknown(true)
                .build();
    }

    private static Properties read(String resource) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        try (InputStream in = (loader != null ? loader : ConfigSamples.class.getClassLoader())
                .getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the class path");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
