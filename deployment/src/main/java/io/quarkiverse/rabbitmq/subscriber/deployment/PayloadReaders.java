package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.Type;

import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.PayloadKind;

/**
 * Which codec can read a handler's payload type, judged from the index: the build fails for a type none can, naming
 * the method, rather than each message of it failing at run time. The built-ins read the raw types, Protobuf messages
 * and, through Jackson, any type it can create; an application's {@code PayloadCodec} beans can read anything (what
 * they claim is only known when a message comes), so with one the build trusts them.
 */
final class PayloadReaders {

    private static final List<DotName> JACKSON_CREATION = List.of(
            DotName.createSimple("com.fasterxml.jackson.annotation.JsonTypeInfo"),
            DotName.createSimple("com.fasterxml.jackson.annotation.JsonSubTypes"),
            DotName.createSimple("com.fasterxml.jackson.databind.annotation.JsonDeserialize"));

    private PayloadReaders() {
    }

    /**
     * The payload types no codec can read: an interface or abstract class Jackson is not told how to create (not one of
     * the JDK's or Jackson's, for which it knows), when the application declares no {@code PayloadCodec} bean.
     */
    static List<String> unreadable(List<SubscriberMethodBuildItem> subscribers, IndexView index,
            boolean applicationCodecs) {
        List<String> problems = new ArrayList<>();
        if (applicationCodecs) {
            return problems;
        }
        for (SubscriberMethodBuildItem subscriber : subscribers) {
            SubscriberMethodAnalysis analysis = subscriber.analysis();
            if (analysis.payloadKind != PayloadKind.JSON || analysis.payloadType == null
                    || analysis.payloadType.kind() == Type.Kind.ARRAY) {
                continue;
            }
            String name = analysis.payloadType.name().toString();
            if (name.startsWith("java.") || name.startsWith("com.fasterxml.jackson.")) {
                // Jackson's own and the JDK's abstract types (Map, List, JsonNode): it knows what to create for them.
                continue;
            }
            ClassInfo type = index.getClassByName(analysis.payloadType.name());
            if (type == null || isProtobuf(type, index)) {
                continue;
            }
            boolean abstractType = type.isInterface() || Modifier.isAbstract(type.flags());
            if (abstractType && JACKSON_CREATION.stream().noneMatch(type::hasDeclaredAnnotation)) {
                problems.add(analysis.description + " takes a payload of type " + analysis.payloadType
                        + " that no codec can read: JSON cannot create " + (type.isInterface() ? "an interface"
                                : "an abstract class")
                        + " (annotate it with @JsonTypeInfo and @JsonSubTypes, or @JsonDeserialize(as = ...)), and the "
                        + "application has no PayloadCodec bean that could: take a concrete type, or add a codec");
            }
        }
        return problems;
    }

    /**
     * Whether the class is a generated Protobuf message: one of protobuf-java's generated-message classes is up its
     * superclasses (protobuf-java itself is seldom in the index, so the names are what tells).
     */
    static boolean isProtobuf(ClassInfo type, IndexView index) {
        for (ClassInfo current = type; current != null && current.superName() != null;) {
            String superName = current.superName().toString();
            if (superName.startsWith("com.google.protobuf.GeneratedMessage")) {
                return true;
            }
            current = index.getClassByName(current.superName());
        }
        return false;
    }
}
