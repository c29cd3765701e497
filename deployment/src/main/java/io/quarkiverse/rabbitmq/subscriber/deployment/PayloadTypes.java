package io.quarkiverse.rabbitmq.subscriber.deployment;

import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.BUFFER;
import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.JSON_ARRAY;
import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.JSON_OBJECT;
import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.LIST;
import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.STRING;

import java.util.List;

import org.jboss.jandex.DotName;
import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.PayloadKind;

/**
 * What a parameter's type means as a message body: how it is decoded ({@link PayloadKind}), or that it is no payload
 * at all, and the element type of a batch handler's {@code List<T>}. Apart from {@link SubscriberMethodAnalysis}
 * because it judges a type alone, while the analysis judges how the method's parameters fit together.
 */
final class PayloadTypes {

    /** Types that are never a payload: the transport's own objects, which a subscriber gets through Delivery. */
    private static final List<String> FOREIGN_PACKAGES = List.of("com.rabbitmq.client.", "io.vertx.core.eventbus.",
            "io.vertx.rabbitmq.", "org.eclipse.microprofile.reactive.messaging.", "io.smallrye.reactive.messaging.",
            "io.vertx.mutiny.", "io.smallrye.mutiny.", "java.util.concurrent.");

    private PayloadTypes() {
    }

    /** The element type of a {@code List<T>} parameter; null for any other type. */
    static Type listElement(Type type) {
        if (type.kind() != Type.Kind.PARAMETERIZED_TYPE || !type.name().equals(LIST)) {
            return null;
        }
        Type element = type.asParameterizedType().arguments().get(0);
        if (element.kind() == Type.Kind.WILDCARD_TYPE && element.asWildcardType().superBound() == null) {
            return element.asWildcardType().extendsBound();
        }
        return element;
    }

    /** How a message body decodes into the type; null for a type that is no payload. */
    static PayloadKind kind(Type type) {
        switch (type.kind()) {
            case ARRAY:
                Type component = type.asArrayType().constituent();
                if (type.asArrayType().dimensions() == 1 && component.kind() == Type.Kind.PRIMITIVE
                        && component.asPrimitiveType().primitive() == PrimitiveType.Primitive.BYTE) {
                    return PayloadKind.BYTES;
                }
                return PayloadKind.JSON;
            case CLASS:
            case PARAMETERIZED_TYPE:
                DotName name = type.name();
                if (name.equals(STRING)) {
                    return PayloadKind.STRING;
                }
                if (name.equals(BUFFER)) {
                    return PayloadKind.BUFFER;
                }
                if (name.equals(JSON_OBJECT)) {
                    return PayloadKind.JSON_OBJECT;
                }
                if (name.equals(JSON_ARRAY)) {
                    return PayloadKind.JSON_ARRAY;
                }
                String className = name.toString();
                if (className.equals("java.lang.Object")
                        || FOREIGN_PACKAGES.stream().anyMatch(className::startsWith)) {
                    return null;
                }
                return PayloadKind.JSON;
            default:
                // primitives, type variables, wildcards: nothing to decode into
                return null;
        }
    }
}
