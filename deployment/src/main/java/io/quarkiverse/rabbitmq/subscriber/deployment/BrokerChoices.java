package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;

import io.quarkiverse.rabbitmq.subscriber.Broker;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerNames;

/**
 * The build's check of the brokers the application names: every {@code @Subscriber(broker)} and every
 * {@code @Broker} injection point must name a broker configured under {@code quarkus.rabbitmq-subscriber.brokers}
 * (or {@link Broker#DEFAULT}); a misspelt name would otherwise fail only at startup, or connect nowhere.
 */
final class BrokerChoices {

    static final DotName BROKER = DotName.createSimple(Broker.class);

    private BrokerChoices() {
    }

    /** One line per subscription or injection point naming a broker that is not configured, in a fixed order. */
    static List<String> unknown(List<SubscriberMethodBuildItem> subscribers, IndexView index,
            SortedSet<String> configured) {
        List<String> problems = new ArrayList<>();
        for (SubscriberMethodBuildItem subscriber : subscribers) {
            String broker = subscriber.analysis().subscription.broker;
            if (!known(broker, configured)) {
                problems.add("@Subscriber method " + subscriber.analysis().description + " names broker '" + broker
                        + "', which is not configured: set quarkus.rabbitmq-subscriber.brokers.\"" + broker
                        + "\".url (or addresses); " + BrokerNames.listed(configured));
            }
        }
        List<String> injections = new ArrayList<>();
        for (AnnotationInstance annotation : index.getAnnotations(BROKER)) {
            if (annotation.target() == null || annotation.target().kind() != AnnotationTarget.Kind.FIELD
                    && annotation.target().kind() != AnnotationTarget.Kind.METHOD_PARAMETER) {
                // Only injection points choose a broker (a producer's own @Broker serves every name).
                continue;
            }
            String broker = annotation.value() == null ? "" : annotation.value().asString();
            if (!known(broker, configured)) {
                injections.add(describe(annotation.target()) + " is annotated @Broker(\"" + broker
                        + "\"), a broker that is not configured: set quarkus.rabbitmq-subscriber.brokers.\"" + broker
                        + "\".url (or addresses); " + BrokerNames.listed(configured));
            }
        }
        injections.stream().sorted().forEach(problems::add);
        return problems;
    }

    private static boolean known(String broker, SortedSet<String> configured) {
        return broker.equals(Broker.DEFAULT) || configured.contains(broker);
    }

    private static String describe(AnnotationTarget target) {
        return switch (target.kind()) {
            case FIELD -> target.asField().declaringClass().name() + "#" + target.asField().name();
            case METHOD_PARAMETER -> target.asMethodParameter().method().declaringClass().name() + "#"
                    + target.asMethodParameter().method().name() + " (parameter "
                    + (target.asMethodParameter().position() + 1) + ")";
            default -> target.toString();
        };
    }
}
