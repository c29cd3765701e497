package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.jackson.ObjectMapperCustomizer;
import io.quarkus.test.QuarkusUnitTest;

/**
 * Decoding is the application's ObjectMapper with Jackson's defaults, lenient ({@code 2.7} becomes {@code 2}, {@code "3"}
 * becomes {@code 3}, a missing field {@code null}); the customizer index.adoc shows makes it strict, and then each of
 * those is an undecodable body, dead-lettered at once, while a well-formed one is handled.
 */
class StrictDecodingTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Line.class, StrictPayloads.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Inject
    InProcessBroker broker;

    @Inject
    Handlers handlers;

    @Test
    void oddJsonIsUndecodableOnceTheMapperIsStrict() {
        broker.publish("strict.lines", "{\"sku\":\"a\",\"qty\":2.7}");
        broker.publish("strict.lines", "{\"sku\":\"a\",\"qty\":\"3\"}");
        broker.publish("strict.lines", "{\"qty\":4}");
        broker.publish("strict.lines", "{\"sku\":\"a\",\"qty\":5}");
        broker.awaitIdle();
        assertEquals(List.of(new Line("a", 5)), handlers.lines());
        assertEquals(3, broker.queue("strict.lines.dead").depth());
    }

    public record Line(String sku, int qty) {
    }

    /** As index.adoc shows it. */
    @Singleton
    public static class StrictPayloads implements ObjectMapperCustomizer {
        @Override
        public void customize(ObjectMapper mapper) {
            mapper.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                    .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                    .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                    .enable(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES);
        }
    }

    public static class Handlers {
        private final List<Line> lines = new CopyOnWriteArrayList<>();

        List<Line> lines() {
            return lines;
        }

        @Subscriber(value = "strict.lines", maxAttempts = 2, deadLetter = "strict.lines.dead")
        void line(Line line) {
            lines.add(line);
        }
    }
}
