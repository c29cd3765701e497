package io.quarkiverse.rabbitmq.subscriber.runtime.codec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;

import io.quarkiverse.rabbitmq.subscriber.runtime.observe.LogText;

/**
 * What is wrong with a body that cannot be decoded, said without a word of the body: Jackson's messages quote the
 * value they could not read ({@code Cannot deserialize value of type long from String "4111-1111-1111-1111"}), and
 * the reason reaches an ERROR line and the dead letter's {@code x-exception-message}. Only where (line, column, the
 * path of field names) and what was expected; the full message is for DEBUG.
 */
final class DecodeFailure {

    private DecodeFailure() {
    }

    static String describe(Throwable failure) {
        JsonProcessingException json = jsonCause(failure);
        if (json == null) {
            return "the body cannot be read (" + failure.getClass().getSimpleName() + ")";
        }
        StringBuilder text = new StringBuilder();
        if (json instanceof UnrecognizedPropertyException) {
            text.append("a field the type does not have");
        } else if (json instanceof MismatchedInputException mismatch) {
            text.append("a value that is not ").append(mismatch.getTargetType() == null ? "of the expected type"
                    : "a " + mismatch.getTargetType().getTypeName());
        } else if (json instanceof JsonParseException) {
            text.append("not valid JSON");
        } else {
            text.append("a value the type cannot take (").append(json.getClass().getSimpleName()).append(')');
        }
        if (json instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            text.append(" at ").append(LogText.of(path(mapping)));
        }
        JsonLocation location = json.getLocation();
        if (location != null && location.getLineNr() > 0) {
            text.append(" (line ").append(location.getLineNr()).append(", column ").append(location.getColumnNr())
                    .append(')');
        }
        return text.toString();
    }

    /** Field names and indexes from the root, as {@code items[2].amount}; names cut to 40 characters. */
    private static String path(JsonMappingException mapping) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : mapping.getPath()) {
            if (reference.getFieldName() != null) {
                String name = reference.getFieldName();
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(name.length() > 40 ? name.substring(0, 40) + "..." : name);
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static JsonProcessingException jsonCause(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return json;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }
}
