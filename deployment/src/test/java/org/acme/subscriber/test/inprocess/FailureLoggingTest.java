package org.acme.subscriber.test.inprocess;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import jakarta.inject.Inject;

import org.acme.subscriber.test.CapturedLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.quarkiverse.rabbitmq.subscriber.OutputNotPublishedException;
import io.quarkiverse.rabbitmq.subscriber.Outputs;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
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
            .assertLogRecords(records -> assertEquals(List.of("log.outcome", "log.output"),
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

    /**
     * A capped quorum queue's failures say what really happens (issue 35: they said "a failure of its redelivery
     * rejects it", which is the uncapped classic rule): the server counts, and the last delivery, which the server
     * dead-letters, is the one ERROR, with the stack trace.
     */
    @Test
    void aQuorumFailureSaysTheServerCountsAndTheLastOneIsTheError() {
        try (CapturedLogs logs = new CapturedLogs()) {
            broker.publish("log.quorum", "x");
            broker.awaitIdle();
            assertEquals(1, broker.queue("log.quorum.dead").depth());
            List<String> warnings = logs.warnings().stream().filter(line -> line.contains("on queue 'log.quorum'"))
                    .toList();
            assertEquals(2, warnings.size(), warnings::toString);
            warnings.forEach(line -> assertTrue(line.contains("requeueing it: RabbitMQ counts its deliveries and "
                    + "dead-letters it to 'log.quorum.dead' after 3"), line));
            List<String> errors = logs.errors().stream().filter(line -> line.contains("on queue 'log.quorum'")).toList();
            assertEquals(1, errors.size(), errors::toString);
            assertTrue(errors.get(0).contains("it used its 3 attempt(s): RabbitMQ dead-letters it to 'log.quorum.dead'"),
                    errors::toString);
            assertEquals(errors, logs.withStackTraces().stream().filter(line -> line.contains("log.quorum"))
                    .filter(line -> !line.startsWith("DEBUG") && !line.startsWith("FINE")).toList(),
                    "the stack trace with the last one");
        }
    }

    /**
     * An output no queue takes fails its delivery like a throw, and is logged like one: a WARN per attempt that gets
     * another, one ERROR when it is given up (issue 35: 5 ERROR and 3 WARN lines for 4 attempts). An output that says
     * nobody taking it is fine ({@code mandatory(false)}) is no failure.
     */
    @Test
    void anUnroutedOutputIsLoggedAsAnyFailureAndAnOptionalOneIsFine() {
        try (CapturedLogs logs = new CapturedLogs()) {
            broker.publish("log.output", "required");
            broker.awaitIdle();
            assertEquals(1, broker.queue("log.output.dead").depth());
            List<String> warnings = logs.warnings().stream().filter(line -> line.contains("log.output")).toList();
            List<String> errors = logs.errors().stream().filter(line -> line.contains("log.output")).toList();
            assertEquals(3, warnings.size(), warnings::toString);
            assertEquals(1, errors.size(), errors::toString);
            assertTrue(warnings.get(0).contains(OutputNotPublishedException.class.getName()), warnings::toString);

            broker.publish("log.output", "optional");
            broker.awaitIdle();
            assertEquals(1, broker.queue("log.output.dead").depth(), "acked: nothing more dead-lettered");
            assertEquals(0, broker.queue("log.output").depth());
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

        @Subscriber(value = "log.quorum", type = QueueType.QUORUM, maxAttempts = 3, deadLetter = "log.quorum.dead")
        void quorumFails(String body) {
            throw new IllegalStateException("ledger offline");
        }

        @Subscriber(value = "log.output", maxAttempts = 4, deadLetter = "log.output.dead")
        Outcome unroutedOutput(String body, Outputs outputs) {
            if (body.equals("optional")) {
                // An event nobody may want yet: no queue taking it is fine.
                outputs.send(OutgoingMessage.to("", "log.nowhere").payload(body).mandatory(false));
            } else {
                outputs.send("log.nowhere", body);
            }
            return Outcome.ack();
        }
    }
}
