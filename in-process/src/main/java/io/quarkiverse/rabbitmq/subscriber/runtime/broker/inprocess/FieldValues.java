package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.LongString;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer.Version;

/**
 * AMQP field-table values as RabbitMQ compares them, in two ways. A binding's arguments belong to its identity with
 * their AMQP types: {@code n=1} as an int and as a long are two bindings, as are a string and a byte array. A headers
 * exchange instead compares the values Erlang decodes, which have lost the type tag: strings and byte arrays are both
 * binaries, every integer width and timestamps are integers. Where the versions differ (measured on 3.10.8 and
 * 4.0.5): 3.10 compares with Erlang's {@code ==}, where an integer equals a float of the same value, and reads a
 * header's timestamp in seconds; 4.x keeps integers and floats apart and reads a header's timestamp in milliseconds,
 * a binding's still in seconds. Inside a nested table or array the type tags stay, so there values are compared as
 * for identity.
 */
final class FieldValues {

    /** What a header value decodes to in Erlang, so which values a headers exchange can find equal. */
    private enum Kind {
        VOID,
        INTEGER,
        FLOAT,
        BINARY,
        BOOLEAN,
        DECIMAL,
        TABLE,
        ARRAY,
        OTHER
    }

    private FieldValues() {
    }

    /** The AMQP type amqp-client encodes a value as, by RabbitMQ's name for it ({@code signedint}, {@code longstr}). */
    static String typeName(Object value) {
        if (value == null) {
            return "void";
        }
        if (value instanceof String || value instanceof LongString) {
            return "longstr";
        }
        if (value instanceof Integer) {
            return "signedint";
        }
        if (value instanceof Long) {
            return "long";
        }
        if (value instanceof Short) {
            return "short";
        }
        if (value instanceof Byte) {
            return "byte";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof Double) {
            return "double";
        }
        if (value instanceof Float) {
            return "float";
        }
        if (value instanceof BigDecimal) {
            return "decimal";
        }
        if (value instanceof Date) {
            return "timestamp";
        }
        if (value instanceof byte[]) {
            return "binary";
        }
        if (value instanceof Map<?, ?>) {
            return "table";
        }
        if (value instanceof List<?> || value instanceof Object[]) {
            return "array";
        }
        return value.getClass().getSimpleName();
    }

    /** Two argument tables are one binding's: the same names, each with the same type and value, in any order. */
    static boolean sameTable(Map<?, ?> a, Map<?, ?> b) {
        Map<?, ?> left = a == null ? Map.of() : a;
        Map<?, ?> right = b == null ? Map.of() : b;
        if (left.size() != right.size()) {
            return false;
        }
        for (Map.Entry<?, ?> entry : left.entrySet()) {
            if (!right.containsKey(entry.getKey()) || !same(entry.getValue(), right.get(entry.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The same AMQP type and the same value, as the wire carries it (a timestamp in whole seconds). */
    static boolean same(Object a, Object b) {
        if (!typeName(a).equals(typeName(b))) {
            return false;
        }
        return switch (typeName(a)) {
            case "void" -> true;
            case "longstr", "binary" -> Arrays.equals(bytes(a), bytes(b));
            case "timestamp" -> seconds((Date) a) == seconds((Date) b);
            case "table" -> sameTable((Map<?, ?>) a, (Map<?, ?>) b);
            case "array" -> sameItems(items(a), items(b));
            // BigDecimal.equals also compares the scale, which the wire carries: 1 and 1.0 are two decimals.
            default -> a.equals(b);
        };
    }

    /** Whether a headers exchange of this version finds a header equal to a binding argument that is not void. */
    static boolean headerEquals(Object argument, Object header, Version version) {
        Kind left = kind(argument);
        Kind right = kind(header);
        boolean four = version.four();
        if (isNumber(left) && isNumber(right)) {
            BigDecimal bound = exact(argument, false);
            BigDecimal sent = exact(header, four);
            return (left == right || !four) && bound != null && sent != null && bound.compareTo(sent) == 0;
        }
        if (left != right) {
            return false;
        }
        return switch (left) {
            case VOID -> true;
            case BINARY -> Arrays.equals(bytes(argument), bytes(header));
            case TABLE -> sameTable((Map<?, ?>) argument, (Map<?, ?>) header);
            case ARRAY -> sameItems(items(argument), items(header));
            default -> argument.equals(header);
        };
    }

    private static Kind kind(Object value) {
        return switch (typeName(value)) {
            case "void" -> Kind.VOID;
            case "signedint", "long", "short", "byte", "timestamp" -> Kind.INTEGER;
            case "double", "float" -> Kind.FLOAT;
            case "longstr", "binary" -> Kind.BINARY;
            case "bool" -> Kind.BOOLEAN;
            case "decimal" -> Kind.DECIMAL;
            case "table" -> Kind.TABLE;
            case "array" -> Kind.ARRAY;
            default -> Kind.OTHER;
        };
    }

    private static boolean isNumber(Kind kind) {
        return kind == Kind.INTEGER || kind == Kind.FLOAT;
    }

    /** Exact, as Erlang compares an integer with a float: no rounding of a long to a double. */
    private static BigDecimal exact(Object value, boolean timestampInMillis) {
        if (value instanceof Date date) {
            return BigDecimal.valueOf(timestampInMillis ? seconds(date) * 1000 : seconds(date));
        }
        if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            return Double.isFinite(number) ? new BigDecimal(number) : null;
        }
        return BigDecimal.valueOf(((Number) value).longValue());
    }

    private static long seconds(Date date) {
        return date.getTime() / 1000;
    }

    /** The bytes of a longstr or binary value: a String goes on the wire as UTF-8. */
    static byte[] bytes(Object value) {
        if (value instanceof LongString text) {
            return text.getBytes();
        }
        if (value instanceof byte[] raw) {
            return raw;
        }
        return value.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<?> items(Object array) {
        return array instanceof Object[] items ? Arrays.asList(items) : (List<?>) array;
    }

    private static boolean sameItems(List<?> a, List<?> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
