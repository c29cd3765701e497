package org.acme.refunds;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where the crash test halts the packaged example, as {@code kill -9} would, on the path of an inbox delivery: a Byteman
 * rule per point, given to the application's JVM as an agent, so that production code holds no hook for it. Each rule
 * names a place in the runtime; if one stops matching (a method renamed), the crash does not happen and the test that
 * waits for it fails, saying the example did not halt.
 */
final class CrashRules {

    /** The runtime's classes the rules name. */
    private static final String INBOX = "io.quarkiverse.rabbitmq.subscriber.runtime.inbox.InboxTransactions";
    private static final String OUTBOX = "io.quarkiverse.rabbitmq.subscriber.runtime.inbox.OutboxBeforeAck";
    private static final String BATCH_OUTBOX = "io.quarkiverse.rabbitmq.subscriber.runtime.batch.BatchOutputs";

    /** The rules of each point: where in the runtime, and under which condition, the JVM halts. */
    private static final Map<String, String> POINTS = Map.of(
            // The handler acked; its transaction (inbox row, effects, outbox rows) is not committed: the end of the
            // work that QuarkusTransaction commits when it returns (the method its callable runs, named so that no
            // rule depends on javac's numbering of lambdas; it returns only on an ack, a rollback throws).
            "before-commit", rule("before-commit", INBOX, "handleInTransaction", "AT EXIT", "TRUE")
                    + rule("before-commit (batch)", INBOX, "handleBatchInTransaction", "AT EXIT", "TRUE"),
            // Committed; its outputs are not published.
            "after-commit", rule("after-commit", OUTBOX, "pass", "AT INVOKE publishOutputs", "TRUE")
                    + rule("after-commit (batch)", BATCH_OUTBOX, "publishThen", "AT INVOKE publishOutputs",
                            "$group != null"),
            // Its outputs are confirmed; their outbox rows are not deleted and the delivery is not acked.
            // (The relay's own publishing of what a crash left does not stop here: only a delivery's own outputs.)
            "after-publish", rule("after-publish", OUTBOX, "lambda$pass$0", "AT INVOKE published", "TRUE")
                    + rule("after-publish (batch)", BATCH_OUTBOX, "lambda$publishThen$1", "AT INVOKE published",
                            "TRUE"));

    private CrashRules() {
    }

    /** The JVM option that halts the application at this point: Byteman's agent with the point's rules. */
    static String agent(String point) {
        String rules = POINTS.get(point);
        if (rules == null) {
            throw new IllegalArgumentException("No crash point '" + point + "': " + POINTS.keySet());
        }
        try {
            Path script = Files.createTempFile(Path.of("target"), "crash-" + point + "-", ".btm");
            Files.writeString(script, rules);
            Path agent = Path.of(org.jboss.byteman.agent.Main.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI());
            return "-javaagent:" + agent + "=script:" + script.toAbsolutePath();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String rule(String name, String className, String method, String where, String condition) {
        return "RULE crash " + name + "\n"
                + "CLASS " + className + "\n"
                + "METHOD " + method + "\n"
                + where + "\n"
                + "IF " + condition + "\n"
                + "DO traceln(\"Crash point " + name + " reached: halting\"); java.lang.Runtime.getRuntime().halt(137)\n"
                + "ENDRULE\n";
    }
}
