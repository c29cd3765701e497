package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.List;
import java.util.Map;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerException;

/**
 * Whether a redeclaration matches what exists, and if not, RabbitMQ's PRECONDITION_FAILED text for the first
 * difference, word for word.
 */
final class Equivalence {

    /** The arguments RabbitMQ compares on redeclaration, in the order it checks them; others are not compared. */
    private static final List<String> CHECKED_QUEUE_ARGUMENTS = List.of("x-expires", "x-message-ttl",
            "x-dead-letter-exchange", "x-dead-letter-routing-key", "x-max-length", "x-max-length-bytes",
            "x-max-priority", "x-overflow", "x-queue-mode", "x-queue-type", "x-single-active-consumer",
            "x-delivery-limit", "x-max-in-memory-length", "x-max-in-memory-bytes", "x-quorum-initial-group-size",
            "x-dead-letter-strategy");

    private Equivalence() {
    }

    /** @param explicitType whether the server records a classic queue's type as {@code classic}, as RabbitMQ 4 does */
    static void checkQueue(ServerQueue existing, boolean durable, boolean autoDelete, Map<String, Object> arguments,
            boolean explicitType) throws BrokerException {
        String what = "queue '" + existing.name + "' in vhost '/'";
        if (existing.durable != durable) {
            throw flag("durable", what, durable, existing.durable);
        }
        if (existing.autoDelete != autoDelete) {
            throw flag("auto_delete", what, autoDelete, existing.autoDelete);
        }
        for (String key : CHECKED_QUEUE_ARGUMENTS) {
            Object received = arguments.get(key);
            Object current = existing.arguments.get(key);
            if (explicitType && key.equals("x-queue-type")) {
                // RabbitMQ 4 records the type of every queue: no type declared is classic.
                received = received == null ? "classic" : received;
                current = current == null ? "classic" : current;
            }
            if (!equivalent(received, current)) {
                // Both present: RabbitMQ names the bare values; one missing: the other with its type.
                boolean both = received != null && current != null;
                throw new BrokerException(BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - inequivalent arg '"
                        + key + "' for " + what + ": received "
                        + (both ? "'" + received + "'" : describe(received)) + " but current is "
                        + (both ? "'" + current + "'" : describe(current)), null);
            }
        }
    }

    static void checkExchange(ServerExchange existing, String type, boolean durable, boolean autoDelete)
            throws BrokerException {
        String what = "exchange '" + existing.name + "' in vhost '/'";
        if (!existing.type.equals(type)) {
            throw new BrokerException(BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - inequivalent arg 'type' for "
                    + what + ": received '" + type + "' but current is '" + existing.type + "'", null);
        }
        if (existing.durable != durable) {
            throw flag("durable", what, durable, existing.durable);
        }
        if (existing.autoDelete != autoDelete) {
            throw flag("auto_delete", what, autoDelete, existing.autoDelete);
        }
    }

    /** Integers of any width are one type class for RabbitMQ: 1000 as a long equals 1000 as an int. */
    private static boolean equivalent(Object received, Object current) {
        if (received == null || current == null) {
            return received == current;
        }
        if (received instanceof Number a && current instanceof Number b && isInteger(a) && isInteger(b)) {
            return a.longValue() == b.longValue();
        }
        return FieldValues.typeName(received).equals(FieldValues.typeName(current))
                && received.toString().equals(current.toString());
    }

    private static boolean isInteger(Number number) {
        return number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte;
    }

    private static BrokerException flag(String name, String what, boolean received, boolean current) {
        return new BrokerException(BrokerException.PRECONDITION_FAILED, "PRECONDITION_FAILED - inequivalent arg '" + name
                + "' for " + what + ": received '" + received + "' but current is '" + current + "'", null);
    }

    /** An argument as RabbitMQ names it in these messages: {@code the value '5' of type 'signedint'}, or none. */
    static String describe(Object value) {
        if (value == null) {
            return "none";
        }
        return "the value '" + value + "' of type '" + FieldValues.typeName(value) + "'";
    }
}
