package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.InProcessBroker;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A handler that fails at each of its three attempts: one WARN line per attempt that gets another delivery (the
 * exception's type and message, no stack trace), and the stack trace once, with the ERROR that gives the message up.
 * Before, each WARN printed a stack trace of some twenty lines. And the startup log speaks of held retryAfter copies
 * only for handlers that can return {@code retryAfter}.
 */
class FailureLoggingTest {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, CapturedLogs.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .setLogRecordPredicate(record -> record.getMessage() != null
                    && record.getMessage().contains("wait in this service until due"))
            .assertLogRecords(records -> assertEquals(List.of("log.outcome"),
                    records.stream().map(record -> String.valueOf(record.getParameters()[0])).sorted().toList(),
                    "only a handler that returns an Outcome can hold retryAfter copies"));

    @Inject
    InProcessBroker broker;

    @Test
    void oneLinePerAttemptAndTheStackTraceOnce() {
        try (CapturedLogs logs = new CapturedLogs()) {
            broker.publish("log.fails", "x");
            broker.awaitIdle();
            assertEquals(1, broker.queue("log.fails.dead").depth());
            List<String> warnings = logs.warnings().stream().filter(line -> line.contains("on queue 'log.fails'"))
                    .toList();
            assertEquals(2, warnings.size(), warnings::toString);
            warnings.forEach(line -> assertTrue(line.contains("java.lang.IllegalStateException: ledger offline"), line));
            List<String> errors = logs.errors().stream().filter(line -> line.contains("on queue 'log.fails'")).toList();
            assertEquals(1, errors.size(), errors::toString);
            List<String> traced = logs.withStackTraces().stream().filter(line -> line.contains("log.fails"))
                    .filter(line -> !line.startsWith("DEBUG") && !line.startsWith("FINE")).toList();
            assertEquals(errors, traced, "only the ERROR carries the stack trace");
        }
    }

    public static class Handlers {
        @Subscriber(value = "log.fails", maxAttempts = 3, deadLetter = "log.fails.dead")
        void fails(String body) {
            throw new IllegalStateException("ledger offline");
        }

        @Subscriber("log.void")
        void cannotDelay(String body) {
        }

        @Subscriber("log.outcome")
        Outcome canDelay(String body) {
            return Outcome.ack();
        }
    }
}
