package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.List;
import java.util.Map;

import com.rabbitmq.client.LongString;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * The headers exchange's rules, as RabbitMQ's {@code rabbit_exchange_type_headers} has them. {@code x-match} is
 * {@code all} (also when absent), {@code any}, {@code all-with-x} or {@code any-with-x}; the plain forms ignore the
 * binding's other arguments that start with {@code x-}, the {@code -with-x} forms require them too. A void (null)
 * argument asks only that the header be present; any other must equal the header as {@link FieldValues} says.
 * With {@code all} a binding with no argument to check matches every message; with {@code any} none.
 */
final class HeadersMatch {

    private static final List<String> KINDS = List.of("all", "any", "all-with-x", "any-with-x");

    private HeadersMatch() {
    }

    /** Why RabbitMQ refuses these binding arguments on a headers exchange (PRECONDITION_FAILED), or null. */
    static String refusal(Map<String, Object> arguments) {
        if (arguments == null || !arguments.containsKey("x-match")) {
            return null;
        }
        Object kind = arguments.get("x-match");
        if (kind instanceof String || kind instanceof LongString) {
            return KINDS.contains(kind.toString()) ? null
                    : "PRECONDITION_FAILED - Invalid x-match field value " + ErlangTerms.binary(FieldValues.bytes(kind))
                            + "; expected all, any, all-with-x, or any-with-x";
        }
        return "PRECONDITION_FAILED - Invalid x-match field type " + FieldValues.typeName(kind) + " (value "
                + ErlangTerms.value(kind) + "); expected longstr";
    }

    /** Whether the message's headers match the binding's arguments, values compared as the version compares them. */
    static boolean matches(Map<String, Object> arguments, Map<String, Object> headers, Version version) {
        Object declared = arguments.get("x-match");
        // As RabbitMQ: what validation let through and is not a known form counts as all.
        String kind = declared != null && KINDS.contains(declared.toString()) ? declared.toString() : "all";
        boolean withX = kind.endsWith("-with-x");
        boolean allMatch = true;
        boolean anyMatch = false;
        for (Map.Entry<String, Object> argument : arguments.entrySet()) {
            String name = argument.getKey();
            if (name.equals("x-match") || (name.startsWith("x-") && !withX)) {
                continue;
            }
            if (headers == null || !headers.containsKey(name)) {
                allMatch = false;
            } else if (argument.getValue() == null
                    || FieldValues.headerEquals(argument.getValue(), headers.get(name), version)) {
                anyMatch = true;
            } else {
                allMatch = false;
            }
        }
        return kind.startsWith("any") ? anyMatch : allMatch;
    }
}
