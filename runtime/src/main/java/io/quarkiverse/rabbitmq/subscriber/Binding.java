package io.quarkiverse.rabbitmq.subscriber;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Binds a subscriber's queue to an exchange: {@code @Subscriber(value = "refunds", bindings = @Binding(exchange =
 * "payments", keys = "refund.*"))}. Under {@code quarkus.rabbitmq-subscriber.declare-topology} the exchange is
 * declared durable with its type and the binding is made; an exchange whose name starts with {@code amq.} (RabbitMQ's
 * own) is only checked to exist. With declaration off, startup checks that the exchange exists (AMQP has no way to
 * check a binding).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({})
public @interface Binding {

    /**
     * The exchange. May be read from the configuration: {@code "${payments.exchange}"} or
     * {@code "${payments.exchange:payments}"}, resolved at startup.
     */
    String exchange();

    /** The exchange's type; {@code TOPIC} (the default) as the Quarkus RabbitMQ connector. */
    ExchangeType type() default ExchangeType.TOPIC;

    /**
     * The binding keys, one binding each. Empty (the default): {@code #} (everything) on a topic exchange, the queue's
     * name on a direct one. A fanout or headers exchange routes without keys, so none may be given there. Each may be
     * read from the configuration as the exchange may.
     */
    String[] keys() default {};

    /**
     * Binding arguments as {@code name=value} ({@code true}/{@code false} become booleans, integers longs, the rest
     * text). A headers binding needs {@code x-match}: {@code {"x-match=all", "kind=refund"}}.
     */
    String[] arguments() default {};
}
