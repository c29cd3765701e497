package org.acme.subscriber.test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.GetResponse;

import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * What someone else's bad message does, one row a case, on the real broker: a retry-count header of the wrong type,
 * negative, huge or written as text; a body that is not UTF-8 where a String is expected; an empty or non-JSON body
 * where JSON is; a missing or generic content type (read as JSON), one no codec reads (refused). Each ends in a documented
 * outcome (handled with a sane count, or
 * dead-lettered at once as undecodable) with at most one clear log line, never a crash, a stuck consumer or a loop.
 */
@Tag("wire")
// What it proves is the client's own doing, the broker only a transport: not run again on RabbitMQ 4.3.6 (.ci/run).
@Tag("same-on-every-broker")
class BadInputTest {

    static final String TEXT = "t.bad.text";
    static final String JSON = "t.bad.json";

    // Qualified: the Order record below shadows the annotation's simple name.
    @RegisterExtension
    @org.junit.jupiter.api.Order(1)
    static final WireBroker broker = WireBroker.queues(TEXT, JSON).withDeadLetterQueues();

    @RegisterExtension
    @org.junit.jupiter.api.Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, Order.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL);

    @Inject
    Handlers handlers;

    /** What happens to the message: handled with this retry count, or dead-lettered at once (-1). */
    static Stream<Arguments> cases() {
        byte[] ok = "ok".getBytes(StandardCharsets.UTF_8);
        byte[] retry = "retry".getBytes(StandardCharsets.UTF_8);
        byte[] order = "{\"id\":\"o-1\"}".getBytes(StandardCharsets.UTF_8);
        return Stream.of(
                // name, queue, body, content type, retry-count header, handled with count (or -1: dead letter), log
                Arguments.of("retry count as text that is no number", TEXT, ok, "text/plain", "abc", 1,
                        "is not a count (text 'abc')"),
                Arguments.of("retry count as a boolean", TEXT, ok, "text/plain", true, 1,
                        "is not a count (Boolean 'true')"),
                Arguments.of("retry count negative", TEXT, ok, "text/plain", -3, 1, "is -3, not a count"),
                Arguments.of("retry count zero", TEXT, ok, "text/plain", 0, 1, "is 0, not a count"),
                Arguments.of("retry count written as digits", TEXT, ok, "text/plain", "2", 2, null),
                Arguments.of("retry count huge: clamped, so the cap ends it", TEXT, retry, "text/plain", 1L << 40,
                        Integer.MAX_VALUE, "is 1099511627776, beyond any cap: counting it as 2147483647"),
                Arguments.of("not UTF-8 where a String is expected", TEXT, new byte[] { (byte) 0xC3, 0x28 },
                        "text/plain", null, -1, "the body is not valid UTF-8 text"),
                Arguments.of("empty body where JSON is expected", JSON, new byte[0], "application/json", null, -1,
                        "as org.acme.subscriber.test.BadInputTest$Order"),
                Arguments.of("not JSON where JSON is expected", JSON, "<order/>".getBytes(StandardCharsets.UTF_8),
                        "application/json", null, -1, "as org.acme.subscriber.test.BadInputTest$Order: not valid JSON"),
                Arguments.of("JSON sent as text: read as JSON", JSON, order, "text/plain", null, 1, null),
                Arguments.of("a content type no codec reads into the type, refused naming it", JSON, order,
                        "application/xml", null, -1, "no codec reads content type 'application/xml' into "
                                + "org.acme.subscriber.test.BadInputTest$Order"),
                Arguments.of("JSON without a content type", JSON, order, null, null, 1, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void endsInItsDocumentedOutcome(String name, String queue, byte[] body, String contentType, Object retryCount,
            int handledWith, String logged) throws Exception {
        String id = UUID.randomUUID().toString();
        AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().messageId(id).contentType(contentType)
                .headers(retryCount == null ? null : Map.of("x-retry-count", retryCount)).build();
        try (CapturedLogs logs = new CapturedLogs()) {
            RabbitAdmin.with(admin -> admin.publishRaw(queue, body, properties));
            if (handledWith > 0 && handledWith != Integer.MAX_VALUE) {
                await().atMost(Duration.ofSeconds(10)).until(() -> handlers.seen.containsKey(id));
                assertEquals(handledWith, handlers.seen.get(id), name);
            } else {
                await().atMost(Duration.ofSeconds(10)).until(() -> RabbitAdmin.withResult(
                        admin -> admin.depth(queue + ".dead")) == 1);
                List<GetResponse> dead = RabbitAdmin.withResult(admin -> admin.drain(queue + ".dead"));
                assertEquals(id, dead.get(0).getProps().getMessageId());
                if (handledWith == Integer.MAX_VALUE) {
                    assertEquals(Integer.MAX_VALUE, handlers.seen.get(id), "the handler saw the clamped count");
                } else {
                    assertTrue(!handlers.seen.containsKey(id), "an undecodable body never reaches the handler");
                }
            }
            RabbitAdmin.with(admin -> await().until(() -> admin.depth(queue) == 0));
            List<String> lines = logs.warnings().stream().filter(line -> line.contains(id)).toList();
            List<String> errors = logs.errors().stream().filter(line -> line.contains(id)).toList();
            if (logged == null) {
                assertEquals(List.of(), lines, name + ": nothing to say");
                assertEquals(List.of(), errors, name + ": nothing to say");
            } else {
                List<String> all = Stream.concat(lines.stream(), errors.stream()).toList();
                assertEquals(1, all.size(), () -> name + ": one line, not " + all);
                assertTrue(all.get(0).contains(logged), () -> name + ": " + all.get(0));
            }
        }
    }

    public record Order(String id) {
    }

    public static class Handlers {
        final Map<String, Integer> seen = new ConcurrentHashMap<>();

        @Subscriber(value = TEXT, maxAttempts = 3, deadLetter = TEXT + ".dead")
        Outcome text(String body, Delivery delivery) {
            seen.put(delivery.messageId(), delivery.attempt());
            return body.equals("retry") ? Outcome.retry() : Outcome.ack();
        }

        @Subscriber(value = JSON, maxAttempts = 3, deadLetter = JSON + ".dead")
        Outcome json(Order order, Delivery delivery) {
            seen.put(delivery.messageId(), delivery.attempt());
            return Outcome.ack();
        }
    }
}
