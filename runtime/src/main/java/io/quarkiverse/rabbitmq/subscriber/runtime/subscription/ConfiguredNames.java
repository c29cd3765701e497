package io.quarkiverse.rabbitmq.subscriber.runtime.subscription;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Names from the configuration: a queue, dead-letter queue, waiting queue, exchange or binding key written as
 * {@code ${property}} or {@code ${property:default}} (several, with text around them: {@code orders.${region}}), as
 * {@code @Scheduled} reads its expressions. Resolved once, at startup; then the rules that compare names run again on
 * the resolved subscriptions, with the build's messages, and any problem stops startup.
 */
public final class ConfiguredNames {

    private ConfiguredNames() {
    }

    /** Whether the text holds an expression. */
    public static boolean isExpression(String name) {
        return name != null && name.contains("${");
    }

    /** Whether any of these subscribers has a name from the configuration. */
    public static boolean anyIn(List<SubscriberDefinition> definitions) {
        return definitions.stream().anyMatch(definition -> definition.subscription.names().stream()
                .anyMatch(ConfiguredNames::isExpression));
    }

    /**
     * The subscribers with their names resolved, marked again as reading dead letters or not; fails naming every
     * property that is missing and every rule the resolved names break.
     *
     * @param property the configuration's value of a property, if it has one
     */
    public static List<SubscriberDefinition> resolve(List<SubscriberDefinition> definitions,
            Function<String, Optional<String>> property) {
        List<String> problems = new ArrayList<>();
        List<SubscriptionSpec> resolved = new ArrayList<>();
        Map<String, List<String>> methodsByQueue = new LinkedHashMap<>();
        for (SubscriberDefinition definition : definitions) {
            String subject = "@Subscriber method " + definition.method + " ";
            SubscriptionSpec subscription = definition.subscription.withNames(name -> {
                try {
                    return resolve(name, property);
                } catch (IllegalArgumentException e) {
                    problems.add(subject + e.getMessage());
                    return name;
                }
            });
            SubscriptionRules.nameProblems(subscription).forEach(problem -> problems.add(subject + problem));
            methodsByQueue.computeIfAbsent(subscription.queue, queue -> new ArrayList<>()).add(definition.method);
            resolved.add(subscription);
        }
        problems.addAll(SubscriptionRules.sharedQueues(methodsByQueue));
        String delayedExchange = resolved.stream().map(subscription -> subscription.delayedExchange)
                .filter(name -> name != null).findFirst().orElse(null);
        problems.addAll(SubscriptionRules.conflicts(resolved, delayedExchange));
        if (!problems.isEmpty()) {
            throw new IllegalStateException("The subscribers' names from the configuration cannot be used:\n\t- "
                    + String.join("\n\t- ", problems));
        }
        List<SubscriptionSpec> marked = SubscriptionSpec.markingDeadLetterReaders(resolved);
        List<SubscriberDefinition> result = new ArrayList<>();
        for (int i = 0; i < definitions.size(); i++) {
            result.add(definitions.get(i).with(marked.get(i)));
        }
        return result;
    }

    /** One name with its expressions replaced; fails naming a property that is not set and has no default. */
    static String resolve(String name, Function<String, Optional<String>> property) {
        if (!isExpression(name)) {
            return name;
        }
        StringBuilder result = new StringBuilder();
        int from = 0;
        while (true) {
            int start = name.indexOf("${", from);
            if (start < 0) {
                return result.append(name, from, name.length()).toString();
            }
            int end = name.indexOf('}', start);
            if (end < 0) {
                throw new IllegalArgumentException("names '" + name + "', whose ${ has no closing }");
            }
            result.append(name, from, start);
            String expression = name.substring(start + 2, end);
            int colon = expression.indexOf(':');
            String key = (colon < 0 ? expression : expression.substring(0, colon)).trim();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("names '" + name + "', whose expression names no property");
            }
            Optional<String> value = property.apply(key);
            if (value.isPresent()) {
                result.append(value.get());
            } else if (colon >= 0) {
                result.append(expression.substring(colon + 1));
            } else {
                throw new IllegalArgumentException("names '" + name + "', but the configuration has no property '"
                        + key + "' and the expression gives no default (${" + key + ":<default>})");
            }
            from = end + 1;
        }
    }
}
