package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.enterprise.util.AnnotationLiteral;
import jakarta.enterprise.util.Nonbinding;
import jakarta.inject.Qualifier;

/**
 * Chooses a named broker, as Quarkus's {@code @DataSource} chooses a datasource: {@code @Broker("billing")
 * RabbitPublisher} publishes on the broker configured under {@code quarkus.rabbitmq-subscriber.brokers."billing".*},
 * with its own connection. An injection point naming a broker that is not configured fails the build. Without it, the
 * default broker's.
 */
@Qualifier
@Retention(RetentionPolicy.RUNTIME)
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE })
public @interface Broker {

    /** The name of the default broker, whose settings are at the root of {@code quarkus.rabbitmq-subscriber}. */
    String DEFAULT = "<default>";

    /** The broker's name, as configured. */
    @Nonbinding
    String value();

    /**
     * {@code @Broker(name)} for programmatic lookup:
     * {@code Arc.container().select(RabbitPublisher.class, Broker.Literal.of("billing"))}.
     */
    final class Literal extends AnnotationLiteral<Broker> implements Broker {

        private static final long serialVersionUID = 1L;

        private final String value;

        private Literal(String value) {
            this.value = value;
        }

        public static Literal of(String value) {
            return new Literal(value);
        }

        @Override
        public String value() {
            return value;
        }
    }
}
