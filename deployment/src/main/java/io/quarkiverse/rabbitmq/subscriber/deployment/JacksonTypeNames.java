package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.List;

import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;

/** A payload type's name as Jackson's {@code TypeFactory.constructFromCanonical} reads it, from Jandex's type. */
final class JacksonTypeNames {

    private JacksonTypeNames() {
    }

    /**
     * The type as Jackson reads it: class names, type arguments and array brackets only. Type annotations
     * ({@code @Valid Refund}) are left out; a type variable or wildcard has no class to decode into.
     */
    static String canonical(Type type) {
        switch (type.kind()) {
            case CLASS:
                return type.name().toString();
            case PRIMITIVE:
                return type.asPrimitiveType().primitive().name().toLowerCase();
            case ARRAY:
                // Jackson's type parser reads arrays by their JVM name: [Lorg.acme.Refund; or [I.
                Type component = type.asArrayType().constituent();
                String brackets = "[".repeat(type.asArrayType().dimensions());
                if (component.kind() == Type.Kind.PRIMITIVE) {
                    return brackets + descriptor(component.asPrimitiveType().primitive());
                }
                if (component.kind() == Type.Kind.CLASS) {
                    return brackets + "L" + component.name().toString() + ";";
                }
                throw new IllegalArgumentException("an array of " + component + " cannot be named for Jackson: use a "
                        + "List instead");
            case PARAMETERIZED_TYPE:
                StringBuilder text = new StringBuilder(type.name().toString()).append('<');
                List<Type> arguments = type.asParameterizedType().arguments();
                for (int i = 0; i < arguments.size(); i++) {
                    text.append(i == 0 ? "" : ",").append(canonical(arguments.get(i)));
                }
                return text.append('>').toString();
            case WILDCARD_TYPE:
                if (type.asWildcardType().superBound() == null) {
                    return canonical(type.asWildcardType().extendsBound());
                }
                throw new IllegalArgumentException("a wildcard with a lower bound (" + type + ") names no type");
            default:
                throw new IllegalArgumentException(type + " is a type variable: name the class to decode into");
        }
    }

    private static String descriptor(PrimitiveType.Primitive primitive) {
        return switch (primitive) {
            case BOOLEAN -> "Z";
            case BYTE -> "B";
            case CHAR -> "C";
            case SHORT -> "S";
            case INT -> "I";
            case LONG -> "J";
            case FLOAT -> "F";
            case DOUBLE -> "D";
        };
    }
}
