package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.QueueType;

/**
 * The rules of a subscription's bindings and queue arguments (DESIGN.md, "Exchanges, bindings and queue options"):
 * a binding RabbitMQ would refuse or that would route nothing, an argument of the wrong type or range, or one the
 * extension sets itself. Each text completes {@code "@Subscriber method <method> "}, as {@link SubscriptionRules}'.
 */
final class TopologyRules {

    /** RabbitMQ's own exchanges, which exist on every virtual host, and their types. */
    private static final Map<String, ExchangeType> BUILT_IN = Map.of("amq.direct", ExchangeType.DIRECT,
            "amq.topic", ExchangeType.TOPIC, "amq.fanout", ExchangeType.FANOUT, "amq.headers", ExchangeType.HEADERS,
            "amq.match", ExchangeType.HEADERS);

    private static final Set<String> X_MATCH = Set.of("all", "any", "all-with-x", "any-with-x");

    /** Arguments whose value must be a whole number of at least 0 (x-expires: at least 1, as RabbitMQ requires). */
    private static final Set<String> COUNTS = Set.of("x-max-length", "x-max-length-bytes", "x-message-ttl",
            "x-expires");

    private TopologyRules() {
    }

    /** The bindings as written: keys where the exchange type routes without them, headers without x-match. */
    static void checkBindings(List<SubscriptionDeclaration.DeclaredBinding> bindings, List<String> problems) {
        for (SubscriptionDeclaration.DeclaredBinding binding : bindings) {
            String named = "binds to " + binding.type() + " exchange '" + binding.exchange() + "'";
            if ((binding.type() == ExchangeType.FANOUT || binding.type() == ExchangeType.HEADERS)
                    && !binding.keys().isEmpty()) {
                problems.add(named + " with keys " + binding.keys() + ": a " + binding.type() + " exchange routes "
                        + "without binding keys, so they would change nothing; remove them"
                        + (binding.type() == ExchangeType.HEADERS ? " and match on headers in arguments" : ""));
            }
            for (String key : binding.keys()) {
                if (key.isEmpty() && binding.type() == ExchangeType.TOPIC) {
                    problems.add(named + " with an empty key: it would match only messages published with an empty "
                            + "routing key; use \"#\" for every message");
                }
            }
            Map<String, Object> arguments = new LinkedHashMap<>();
            for (String text : binding.arguments()) {
                if (ArgumentText.name(text) == null) {
                    problems.add(named + " with argument '" + text + "', which is not name=value");
                }
            }
            arguments.putAll(ArgumentText.parse(binding.arguments()));
            if (binding.type() == ExchangeType.HEADERS) {
                Object match = arguments.get("x-match");
                if (match == null) {
                    problems.add(named + " without x-match: say how its headers match, arguments = {\"x-match=all\", "
                            + "\"<header>=<value>\"} (or x-match=any)");
                } else if (!X_MATCH.contains(String.valueOf(match))) {
                    problems.add(named + " with x-match=" + match + ": it must be one of " + X_MATCH.stream()
                            .sorted().toList());
                }
            } else if (arguments.containsKey("x-match")) {
                problems.add(named + " with x-match: only a HEADERS exchange matches on headers");
            }
        }
    }

    /** The bindings' exchanges, once their names are known (at build time as written, at startup resolved). */
    static void checkExchangeNames(SubscriptionSpec subscription, List<String> problems) {
        for (BindingSpec binding : subscription.bindings) {
            if (binding.exchange.isEmpty()) {
                problems.add("binds to the default exchange \"\": every queue is bound to it by its own name "
                        + "already, and RabbitMQ refuses other bindings; name an exchange, or remove the @Binding");
                continue;
            }
            if (!binding.builtIn()) {
                continue;
            }
            ExchangeType type = BUILT_IN.get(binding.exchange);
            if (type == null) {
                problems.add("binds to exchange '" + binding.exchange + "': RabbitMQ reserves the 'amq.' prefix for "
                        + "its own exchanges " + BUILT_IN.keySet().stream().sorted().toList() + " and refuses to "
                        + "declare others");
            } else if (type != binding.type) {
                problems.add("binds to exchange '" + binding.exchange + "' as " + binding.type + ": RabbitMQ's "
                        + binding.exchange + " is a " + type + " exchange; say type = ExchangeType." + type);
            }
        }
    }

    /**
     * The queue arguments: each text {@code name=value}, the known ones of the right type and range, none that the
     * extension sets itself.
     *
     * @param texts as written, the annotation's then the configuration's
     */
    static void checkArguments(SubscriptionSpec subscription, List<String> texts, List<String> problems) {
        for (String text : texts) {
            if (ArgumentText.name(text) == null) {
                problems.add("declares queue argument '" + text + "', which is not name=value");
            }
        }
        boolean quorumCap = subscription.quorum() && subscription.maxAttempts > 0;
        subscription.arguments.forEach((name, value) -> {
            String named = "declares queue argument " + name + "=" + value;
            if (name.equals("x-queue-type")) {
                problems.add(named + ": the extension sets the queue type; use type = QueueType."
                        + (String.valueOf(value).equals("quorum") ? "QUORUM" : "CLASSIC"));
            } else if (name.equals("x-delivery-limit")) {
                problems.add(named + ": the extension sets the delivery limit; use maxAttempts (with deadLetter) or, "
                        + "on a quorum queue, deliveryLimit");
            } else if (name.startsWith("x-delayed-retry-")) {
                problems.add(named + ": the extension sets the server's delayed retry; use retryDelay = @RetryDelay("
                        + "min = \"1s\", max = \"1m\") on a quorum queue");
            } else if (quorumCap && (name.startsWith("x-dead-letter-"))) {
                problems.add(named + ": the cap (maxAttempts) of quorum queue '" + subscription.queue + "' sets the "
                        + "dead-letter route to '" + subscription.deadLetter + "'; remove the argument");
            } else if (COUNTS.contains(name)) {
                long least = name.equals("x-expires") ? 1 : 0;
                if (!(value instanceof Long number) || number < least) {
                    problems.add(named + ": it must be a whole number of " + least + " or more"
                            + (name.equals("x-expires") ? " (milliseconds unused before RabbitMQ deletes the queue)"
                                    : ""));
                }
            } else if (name.equals("x-overflow")) {
                checkOverflow(subscription, named, String.valueOf(value), quorumCap, problems);
            } else if (name.equals("x-single-active-consumer")) {
                if (!(value instanceof Boolean)) {
                    problems.add(named + ": it must be true or false");
                }
            } else if (name.equals("x-max-priority")) {
                if (subscription.type == QueueType.QUORUM) {
                    problems.add(named + ": quorum queues have no priorities on the RabbitMQ versions this extension "
                            + "supports; remove it or use a classic queue");
                } else if (!(value instanceof Long number) || number < 1 || number > 255) {
                    problems.add(named + ": it must be a whole number from 1 to 255");
                }
            } else if (name.equals("x-queue-leader-locator")) {
                if (!(value instanceof String)) {
                    problems.add(named + ": it must be a strategy name (client-local or balanced)");
                }
            }
        });
    }

    private static void checkOverflow(SubscriptionSpec subscription, String named, String value, boolean quorumCap,
            List<String> problems) {
        List<String> allowed = List.of("drop-head", "reject-publish", "reject-publish-dlx");
        if (!allowed.contains(value)) {
            problems.add(named + ": it must be one of " + allowed);
        } else if (subscription.quorum() && value.equals("reject-publish-dlx")) {
            problems.add(named + ": quorum queues support drop-head and reject-publish only");
        } else if (quorumCap && !value.equals("reject-publish")) {
            problems.add(named + ": the cap (maxAttempts) of quorum queue '" + subscription.queue + "' dead-letters "
                    + "at least once, which RabbitMQ applies only with x-overflow=reject-publish (the extension sets "
                    + "it); remove the argument");
        }
    }

    /**
     * Exchanges that two bindings declare with different types, in the order of their names: RabbitMQ would refuse
     * the second declaration, so the application could never start.
     */
    static List<String> exchangeConflicts(List<SubscriptionSpec> subscriptions, String delayedExchange) {
        List<SubscriptionSpec> sorted = new ArrayList<>(subscriptions);
        sorted.sort(Comparator.comparing(subscription -> subscription.queue));
        // The first binding of each exchange: its type, and the queue it binds.
        Map<String, BindingSpec> first = new java.util.HashMap<>();
        Map<String, String> firstQueue = new java.util.HashMap<>();
        List<String> conflicts = new ArrayList<>();
        for (SubscriptionSpec subscription : sorted) {
            for (BindingSpec binding : subscription.bindings) {
                if (delayedExchange != null && binding.exchange.equals(delayedExchange)) {
                    conflicts.add("Exchange '" + binding.exchange + "' is both the delayed-message exchange "
                            + "(quarkus.rabbitmq-subscriber.delayed-exchange.name) and bound by queue '"
                            + subscription.queue + "': name another");
                    continue;
                }
                BindingSpec earlier = first.putIfAbsent(binding.exchange, binding);
                firstQueue.putIfAbsent(binding.exchange, subscription.queue);
                if (earlier != null && earlier.type != binding.type) {
                    conflicts.add("Exchange '" + binding.exchange + "' is bound as " + earlier.type + " (queue '"
                            + firstQueue.get(binding.exchange) + "') and as " + binding.type + " (queue '"
                            + subscription.queue + "'): an exchange has one type; use the same type in both @Binding "
                            + "annotations");
                }
            }
        }
        return conflicts;
    }
}
