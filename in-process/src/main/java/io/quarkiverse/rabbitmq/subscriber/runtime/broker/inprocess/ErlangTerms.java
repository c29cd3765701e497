package io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess;

import java.util.Date;
import java.util.StringJoiner;

/**
 * Values as RabbitMQ prints them in a refusal's text ({@code ~p}): {@code <<"some">>} for a string, {@code true},
 * {@code 1.5}. Only the simple terms are exact; a table or an array is printed roughly.
 */
final class ErlangTerms {

    private ErlangTerms() {
    }

    static String value(Object value) {
        if (value == null) {
            return "undefined";
        }
        if (value instanceof Date date) {
            return Long.toString(date.getTime() / 1000);
        }
        if (value instanceof Double || value instanceof Float) {
            // Erlang prints the shortest form that reads back, as Java does, with a lower-case exponent.
            return Double.toString(((Number) value).doubleValue()).replace('E', 'e');
        }
        if (FieldValues.typeName(value).equals("longstr") || value instanceof byte[]) {
            return binary(FieldValues.bytes(value));
        }
        return value.toString();
    }

    /** {@code <<"text">>} when every byte is printable ASCII, else the bytes: {@code <<1,2>>}. */
    static String binary(byte[] bytes) {
        boolean printable = true;
        for (byte b : bytes) {
            printable &= b >= 32 && b < 127;
        }
        if (bytes.length == 0) {
            return "<<>>";
        }
        if (printable) {
            String text = new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
            return "<<\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\">>";
        }
        StringJoiner joined = new StringJoiner(",", "<<", ">>");
        for (byte b : bytes) {
            joined.add(Integer.toString(b & 0xff));
        }
        return joined.toString();
    }
}
