package io.quarkiverse.rabbitmq.subscriber.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The real RabbitMQ a wire test runs against, as a JUnit 5 extension registered before the test's
 * {@code QuarkusUnitTest} (or {@code QuarkusDevModeTest}):
 *
 * <pre>
 * &#64;RegisterExtension
 * &#64;Order(1)
 * static final WireBroker broker = WireBroker.queues("t.orders", "t.orders.dead").before(admin -> ...);
 *
 * &#64;RegisterExtension
 * &#64;Order(2)
 * static final QuarkusUnitTest config = new QuarkusUnitTest()
 *         .overrideConfigKey("quarkus.rabbitmq-subscriber.url", WireBroker.URL)...
 * </pre>
 *
 * <ul>
 * <li>Its test class is tagged {@code @Tag("wire")} ({@link #TAG}; it fails otherwise): {@code .ci/run} runs the wire tests
 * on each broker by that tag.</li>
 * <li>It names the broker under test: {@code -Drabbitmq.test.port} (5672 by default; 5682 for the RabbitMQ 4.0.5 that
 * {@code .ci/rabbitmq4} runs) and {@code -Drabbitmq.test.ctl} (how rabbitmqctl reaches it).</li>
 * <li>Each queue and exchange name belongs to one test class in a run: a second class claiming it fails, since two
 * classes sharing a queue would see each other's messages whenever they overlap or one leaves something behind.</li>
 * <li>Before the application starts it deletes what an aborted earlier run may have left under those names, then runs
 * the test's own set-up; after the application stopped (extensions' after-all callbacks run in reverse order) it
 * deletes them, so no consumer of the application sees its queues go.</li>
 * <li>When the broker does not answer, the class is skipped with a reason that names it, unless
 * {@code -Drabbitmq.test.required=true} (as {@code .ci/run} sets), where it fails instead: in CI a missing broker is a
 * fault, not a reason to pass.</li>
 * </ul>
 */
public final class WireBroker implements ExecutionCondition, BeforeAllCallback, AfterAllCallback {

    /** The JUnit tag every class that registers a WireBroker has: CI selects the wire tests by it for each broker. */
    public static final String TAG = "wire";

    public static final int PORT = Integer.getInteger("rabbitmq.test.port", 5672);
    public static final String URL = "amqp://guest:guest@127.0.0.1:" + PORT;
    /**
     * The stream protocol's port of the broker under test ({@code -Drabbitmq.test.stream-port}; 5552, the plugin's
     * default, unless set: {@code .ci/rabbitmq4} listens on 5553, {@code .ci/rabbitmq43} on 5554).
     */
    public static final int STREAM_PORT = Integer.getInteger("rabbitmq.test.stream-port", 5552);
    /**
     * How rabbitmqctl reaches the broker under test: {@code -Drabbitmq.test.ctl="<command> <args>"} (for RabbitMQ 4.0.5,
     * {@code .ci/rabbitmq4 ctl}, which runs it inside its root); the local {@code rabbitmqctl -q} by default.
     */
    public static final List<String> CTL = List
            .of(System.getProperty("rabbitmq.test.ctl", "rabbitmqctl -q").trim().split("\\s+"));
    static final boolean REQUIRED = Boolean.getBoolean("rabbitmq.test.required");

    /** Which test class holds each name in this run. */
    private static final Map<String, String> CLAIMED = new ConcurrentHashMap<>();
    /** The server's version, or why it could not be reached: asked once per run. */
    private static volatile Probe probe;

    private final List<String> queues;
    private final List<String> exchanges = new ArrayList<>();
    private RabbitAdmin.ThrowingConsumer setUp = admin -> {
    };
    private Requirement requirement = Requirement.NONE;
    private final List<Plugin> plugins = new ArrayList<>();
    private boolean givesUrl;
    /** The url property this class set, to clear after it. */
    private static final String URL_KEY = "quarkus.rabbitmq-subscriber.url";

    private WireBroker(List<String> queues) {
        this.queues = new ArrayList<>(queues);
    }

    /** A wire test whose subscribers (and the test itself) use these queues, and no others. */
    public static WireBroker queues(String... queues) {
        return new WireBroker(List.of(queues));
    }

    /** Adds {@code <queue>.dead} for each queue named so far (the tests' dead-letter queues). */
    public WireBroker withDeadLetterQueues() {
        queues.addAll(queues.stream().map(queue -> queue + ".dead").toList());
        return this;
    }

    /**
     * The application's broker is this one: {@code quarkus.rabbitmq-subscriber.url} is set to {@link #URL} (as a system
     * property, from before the application starts until the class is done), so the class does not set it. Not for a
     * class whose application goes elsewhere (a proxy, the cluster): a system property would win over its own URL; nor
     * for an application in a process of its own ({@code QuarkusProdModeTest}), which the property does not reach.
     */
    public WireBroker givesUrl() {
        this.givesUrl = true;
        return this;
    }

    /** Exchanges the test declares: claimed and deleted like the queues. */
    public WireBroker exchanges(String... names) {
        exchanges.addAll(List.of(names));
        return this;
    }

    /** What the test declares or publishes before the application starts, after leftovers are gone. */
    public WireBroker before(RabbitAdmin.ThrowingConsumer setUp) {
        this.setUp = setUp;
        return this;
    }

    /**
     * Runs only where the broker has this plugin enabled. Where it lacks it the class is skipped with one line naming the
     * plugin, or fails under {@code -Drabbitmq.test.required=true}: CI enables every plugin a test needs on the brokers
     * that run it (the delayed-message plugin only on RabbitMQ 4.0.5, where the classes tagged {@code plugin} run).
     */
    public WireBroker needsPlugin(Plugin plugin) {
        plugins.add(plugin);
        return this;
    }

    /**
     * Runs only where the broker's stream protocol answers on {@link #STREAM_PORT} (the {@code rabbitmq_stream}
     * plugin): skipped naming it elsewhere, or failing under {@code -Drabbitmq.test.required=true}. Tag such a class
     * {@code stream} too: CI runs it on RabbitMQ 4.0.5 and 4.3.6, whose stream listeners it enables, and not on the
     * stock 3.10.8.
     */
    public WireBroker needsStreams() {
        return needsPlugin(Plugin.STREAM);
    }

    /** {@link #needsPlugin(Plugin)} for the delayed-message exchange (RabbitMQ 4.0.5 in CI). */
    public WireBroker needsDelayedMessagePlugin() {
        return needsPlugin(Plugin.DELAYED_MESSAGE);
    }

    /** Runs only where the broker lacks the delayed-message plugin (3.10.8 in CI): a test of what happens without it. */
    public WireBroker needsNoDelayedMessagePlugin() {
        requirement = Requirement.NO_PLUGIN;
        return this;
    }

    /**
     * Within a test that runs against the broker: stops it here, skipped with one line naming the plugin, where the broker
     * lacks it, or fails under {@code -Drabbitmq.test.required=true}. For a suite where only some tests need it.
     */
    public static void assumePlugin(Plugin plugin) {
        String missing = probe().version.isEmpty() ? probe().failure : missing(plugin);
        if (missing != null) {
            if (REQUIRED) {
                throw new IllegalStateException(missing + " and -Drabbitmq.test.required is set");
            }
            Assumptions.abort(missing + SKIP_HINT);
        }
    }

    /** Why the broker cannot run a test that needs the plugin, or null when it can. */
    private static String missing(Plugin plugin) {
        return plugin.enabled() ? null
                : name() + " has no " + plugin.pluginName + " plugin enabled (" + plugin.howToGet + ")";
    }

    private static final String SKIP_HINT = "; -Drabbitmq.test.required=true makes this a failure";

    /**
     * A RabbitMQ plugin a wire test may need. Whether the broker has it is asked once per run by declaring its exchange
     * type: an unknown type is refused (on 3.10 with the whole connection, so on a connection of its own).
     */
    public enum Plugin {
        CONSISTENT_HASH("rabbitmq_consistent_hash_exchange", "x-consistent-hash", Map.of(),
                "rabbitmq-plugins enable rabbitmq_consistent_hash_exchange: every RabbitMQ ships it"),
        DELAYED_MESSAGE("rabbitmq_delayed_message_exchange", "x-delayed-message", Map.of("x-delayed-type", "direct"),
                "RabbitMQ 4.0.5 from .ci/rabbitmq4 has it: -Drabbitmq.test.port=5682"),
        /** Found by its listener on {@link #STREAM_PORT}, not by an exchange type. */
        STREAM("rabbitmq_stream", null, Map.of(), "no stream listener on 127.0.0.1:" + STREAM_PORT + "; .ci/rabbitmq4 "
                + "enables it on 5553 (-Drabbitmq.test.port=5682 -Drabbitmq.test.stream-port=5553), .ci/rabbitmq43 on 5554");

        private final String pluginName;
        private final String exchangeType;
        private final Map<String, Object> arguments;
        private final String howToGet;
        private volatile Boolean enabled;

        Plugin(String pluginName, String exchangeType, Map<String, Object> arguments, String howToGet) {
            this.pluginName = pluginName;
            this.exchangeType = exchangeType;
            this.arguments = arguments;
            this.howToGet = howToGet;
        }

        /** True where the broker under test answers and has the plugin enabled. */
        public boolean enabled() {
            Boolean found = enabled;
            if (found == null) {
                found = enabled = probe().version.isPresent() && (exchangeType == null ? streamListens()
                        : RabbitAdmin.hasExchangeType(exchangeType, arguments));
            }
            return found;
        }
    }

    private static boolean streamListens() {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", STREAM_PORT), 2_000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** "RabbitMQ 4.0.5 at 127.0.0.1:5682": what a skip reason or a failure calls the broker under test. */
    public static String name() {
        Probe found = probe();
        return "RabbitMQ " + found.version.orElse("(not answering)") + " at 127.0.0.1:" + PORT;
    }

    /** The broker's version, as it announces it to a client ("3.10.8", "4.0.5"). */
    public static String version() {
        return probe().version.orElseThrow(() -> new IllegalStateException(probe().failure));
    }

    /**
     * RabbitMQ 4.3 or later (4.3.6 here): delayed retry, x-acquired-count, no delayed-message plugin. False where no
     * broker answers (the class is skipped then, or fails when one is required).
     */
    public static boolean isRabbitMq43() {
        String[] parts = probe().version.orElse("0.0").split("\\.");
        return parts.length > 1 && (Integer.parseInt(parts[0]) > 4
                || (Integer.parseInt(parts[0]) == 4 && Integer.parseInt(parts[1]) >= 3));
    }

    /** A test of what RabbitMQ 4.3 and later do (the server's delayed retry): skipped on an older broker. */
    public WireBroker needsRabbitMq43() {
        requirement = Requirement.RABBITMQ_43;
        return this;
    }

    /** A test of what a broker older than 4.3 does (or refuses): skipped on 4.3 and later. */
    public WireBroker needsBeforeRabbitMq43() {
        requirement = Requirement.BEFORE_RABBITMQ_43;
        return this;
    }

    /** RabbitMQ 4 or later; false where no broker answers (the class is skipped then, or fails when one is required). */
    public static boolean isRabbitMq4() {
        return !probe().version.orElse("0").startsWith("3.") && !probe().version.orElse("0").equals("0");
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        if (context.getTestMethod().isPresent()) {
            return ConditionEvaluationResult.enabled("decided for the class");
        }
        ConditionEvaluationResult answers = answers();
        if (probe().version.isEmpty()) {
            return answers;
        }
        for (Plugin plugin : plugins) {
            String missing = missing(plugin);
            if (missing != null) {
                // Enabled when required: beforeAll then fails with the reason.
                return REQUIRED ? ConditionEvaluationResult.enabled("required")
                        : ConditionEvaluationResult.disabled(missing + SKIP_HINT);
            }
        }
        return requirement.check();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Probe found = probe();
        if (found.version.isEmpty()) {
            throw new IllegalStateException(found.failure + " and -Drabbitmq.test.required is set");
        }
        for (Plugin plugin : plugins) {
            String missing = missing(plugin);
            if (missing != null) {
                throw new IllegalStateException(missing + " and -Drabbitmq.test.required is set");
            }
        }
        String owner = context.getRequiredTestClass().getName();
        if (!context.getTags().contains(TAG)) {
            // CI runs the wire tests on its second broker by this tag: an untagged one would silently run on one only.
            throw new IllegalStateException(owner + " registers WireBroker but is not tagged @Tag(\"" + TAG
                    + "\"): tag it, so that every broker under test runs it");
        }
        List<String> names = new ArrayList<>(queues);
        names.addAll(exchanges);
        for (String name : names) {
            String holder = CLAIMED.putIfAbsent(name, owner);
            if (holder != null && !holder.equals(owner)) {
                throw new IllegalStateException("'" + name + "' is already used by " + holder + " in this run: give "
                        + owner + " names of its own");
            }
        }
        RabbitAdmin.with(admin -> {
            deleteAll(admin);
            setUp.accept(admin);
        });
        if (givesUrl) {
            System.setProperty(URL_KEY, URL);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (givesUrl) {
            System.clearProperty(URL_KEY);
        }
        if (probe().version.isPresent()) {
            RabbitAdmin.with(this::deleteAll);
        }
    }

    /**
     * Whether the broker under test answers: where it does not, disabled with the reason, or enabled where one is
     * required (the test then fails on the missing broker). The condition of {@link BrokerAnswers} too.
     */
    static ConditionEvaluationResult answers() {
        Probe found = probe();
        if (found.version.isPresent()) {
            return ConditionEvaluationResult.enabled(name() + " answers");
        }
        return REQUIRED ? ConditionEvaluationResult.enabled("required: the test fails without RabbitMQ")
                : ConditionEvaluationResult.disabled(found.failure + " (start RabbitMQ there, or point "
                        + "-Drabbitmq.test.port at one" + SKIP_HINT + ")");
    }

    private void deleteAll(RabbitAdmin admin) {
        admin.delete(queues.toArray(String[]::new));
        // A dead-letter queue's reader declares <queue>.parked beside it: whichever of these has a reader, it goes too.
        admin.delete(queues.stream().map(queue -> queue + ".parked").toArray(String[]::new));
        exchanges.forEach(admin::deleteExchange);
    }

    private static Probe probe() {
        Probe found = probe;
        if (found == null) {
            found = probe = Probe.ask();
        }
        return found;
    }

    private record Probe(Optional<String> version, String failure) {
        static Probe ask() {
            ConnectionFactory factory = new ConnectionFactory();
            factory.setConnectionTimeout(5_000);
            try {
                factory.setUri(URL);
                try (Connection connection = factory.newConnection("wire-broker-probe")) {
                    return new Probe(Optional.of(String.valueOf(connection.getServerProperties().get("version"))), null);
                }
            } catch (Exception e) {
                return new Probe(Optional.empty(), "No RabbitMQ answers at 127.0.0.1:" + PORT + " (" + e + ")");
            }
        }
    }

    private enum Requirement {
        NONE,
        NO_PLUGIN,
        RABBITMQ_43,
        BEFORE_RABBITMQ_43;

        ConditionEvaluationResult check() {
            if (this == NONE) {
                return ConditionEvaluationResult.enabled(name());
            }
            if (this == RABBITMQ_43 || this == BEFORE_RABBITMQ_43) {
                return isRabbitMq43() == (this == RABBITMQ_43) ? ConditionEvaluationResult.enabled(name())
                        : ConditionEvaluationResult.disabled(WireBroker.name() + (this == RABBITMQ_43
                                ? " is older than 4.3 (RabbitMQ 4.3.6 from .ci/rabbitmq43: -Drabbitmq.test.port=5692)"
                                : " is 4.3 or later: the test of an older broker runs on one"));
            }
            if (Plugin.DELAYED_MESSAGE.enabled()) {
                return ConditionEvaluationResult.disabled(WireBroker.name() + " has the delayed-message plugin: "
                        + "the test of a broker without it runs on one that lacks it");
            }
            return ConditionEvaluationResult.enabled(name());
        }
    }
}
