package org.acme.subscriber.test.nativeimage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.ProdBuildResults;
import io.quarkus.test.ProdModeTestResults;
import io.quarkus.test.QuarkusProdModeTest;

/**
 * Native readiness, as far as this machine can prove it (no GraalVM, no container runtime): the native-image sources
 * of an application are generated ({@code quarkus.native.sources-only}), and their reflection configuration holds
 * every JSON payload type (with the types they contain) and nothing of the subscribers themselves: handlers are
 * called through generated invokers, and text or byte payloads need no reflection.
 */
class NativeReflectionTest {

    @RegisterExtension
    static final QuarkusProdModeTest build = new QuarkusProdModeTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, Line.class, Refund.class))
            .setApplicationName("native-reflection").setApplicationVersion("1")
            .overrideConfigKey("quarkus.native.enabled", "true")
            .overrideConfigKey("quarkus.native.sources-only", "true")
            .setRun(false);

    @ProdBuildResults
    ProdModeTestResults results;

    @Test
    void registersThePayloadTypesAndNothingOfTheSubscribers() throws Exception {
        Map<String, Map<String, Object>> reflective = reflectConfig(results.getBuildDir().resolve("native-sources"));
        for (Class<?> payload : List.of(Order.class, Line.class, Refund.class)) {
            Map<String, Object> entry = reflective.get(payload.getName());
            assertTrue(entry != null, payload + " is registered for reflection: " + acme(reflective));
            assertEquals(Boolean.TRUE, entry.get("allDeclaredConstructors"), payload + " can be built by Jackson");
            assertEquals(Boolean.TRUE, entry.get("allDeclaredFields"), payload + " can be filled by Jackson");
        }
        assertEquals(Set.of(Order.class.getName(), Line.class.getName(), Refund.class.getName()), acme(reflective),
                "nothing else of the application: handlers are invoked without reflection");
        Set<String> wholesale = reflective.entrySet().stream()
                .filter(entry -> entry.getKey().startsWith("io.quarkiverse.rabbitmq.subscriber"))
                .filter(entry -> Boolean.TRUE.equals(entry.getValue().get("allDeclaredMethods")))
                // Quarkus's configuration registers its mapping implementations itself.
                .filter(entry -> !entry.getKey().endsWith("$$CMImpl"))
                .map(Map.Entry::getKey).collect(Collectors.toCollection(java.util.TreeSet::new));
        assertEquals(Set.of("io.quarkiverse.rabbitmq.subscriber.Delay", "io.quarkiverse.rabbitmq.subscriber.RetryPublish",
                "io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig$BrokerKind",
                "io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig$ClockMode",
                "io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerSettings$SaslMechanism",
                "io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig$CopyChannel",
                "io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberConfig$InboxSchema",
                // The @Broker qualifier, which ArC registers: the named publisher's producer reads its value from the
                // injection point.
                "io.quarkiverse.rabbitmq.subscriber.Broker"), wholesale,
                "of the extension, only the enums configuration values convert to (Quarkus's config registers them), "
                        + "and the @Broker qualifier");
    }

    static Set<String> acme(Map<String, Map<String, Object>> reflective) {
        return reflective.keySet().stream().filter(name -> name.startsWith("org.acme."))
                .collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> reflectConfig(Path nativeSources) throws Exception {
        Path runner;
        try (Stream<Path> files = Files.list(nativeSources)) {
            runner = files.filter(file -> file.getFileName().toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("no runner jar in " + nativeSources));
        }
        try (JarFile jar = new JarFile(runner.toFile());
                InputStream json = jar.getInputStream(jar.getEntry("META-INF/native-image/reflect-config.json"))) {
            List<Map<String, Object>> entries = new ObjectMapper().readValue(json, List.class);
            Map<String, Map<String, Object>> byName = new TreeMap<>();
            entries.forEach(entry -> byName.merge((String) entry.get("name"), entry, (a, b) -> {
                Map<String, Object> merged = new java.util.HashMap<>(a);
                b.forEach((key, value) -> merged.merge(key, value, (x, y) -> Boolean.TRUE.equals(x) ? x : y));
                return merged;
            }));
            return byName;
        }
    }

    public record Line(String sku, int quantity) {
    }

    public record Order(String id, List<Line> lines) {
    }

    public static class Refund {
        public long id;
        public String card;
    }

    public static class Handlers {
        @Subscriber("n.orders")
        Outcome order(Order order) {
            return Outcome.ack();
        }

        /** A batch handler: its payloads' type is the list's element. */
        @Subscriber(value = "n.refunds", batch = @io.quarkiverse.rabbitmq.subscriber.Batch(size = 10))
        void refunds(List<Refund> refunds, List<Delivery> deliveries) {
        }

        @Subscriber("n.text")
        void text(String body) {
        }

        @Subscriber("n.bytes")
        void bytes(byte[] body) {
        }
    }
}
