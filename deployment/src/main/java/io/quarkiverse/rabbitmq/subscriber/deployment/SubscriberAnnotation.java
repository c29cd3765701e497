package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.ExchangeType;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionDeclaration;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * A {@code @Subscriber} annotation's values as written, read from Jandex into a {@link SubscriptionDeclaration}.
 * Apart from {@link SubscriberMethodAnalysis} because it has one job, translating the annotation, that comes before
 * the queue's configuration overrides ({@link SubscriptionOverrides}) and before any rule judges the result. Its
 * {@code batch} is read by {@link BatchDeclaration}, as it is no part of the subscription.
 */
final class SubscriberAnnotation {

    private SubscriberAnnotation() {
    }

    /** The annotation's values where they are written; the builder's defaults are the annotation's. */
    static SubscriptionDeclaration read(AnnotationInstance subscriber) {
        SubscriptionDeclaration declared = SubscriptionSpec.builder(subscriber.value().asString());
        ifWritten(subscriber, "type", value -> declared.type(QueueType.valueOf(value.asEnum())));
        ifWritten(subscriber, "deliveryLimit", value -> declared.deliveryLimit(value.asInt()));
        ifWritten(subscriber, "prefetch", value -> declared.prefetch(value.asInt()));
        ifWritten(subscriber, "maxAttempts", value -> declared.maxAttempts(value.asInt()));
        ifWritten(subscriber, "deadLetter", value -> declared.deadLetter(value.asString()));
        ifWritten(subscriber, "retryPublish", value -> declared.retryPublish(RetryPublish.valueOf(value.asEnum())));
        ifWritten(subscriber, "deadLetterOn", value -> declared.deadLetterOn(Arrays.stream(value.asClassArray())
                .map(type -> type.name().toString()).toList()));
        ifWritten(subscriber, "backoff", value -> {
            AnnotationInstance backoff = value.asNested();
            AnnotationValue initial = backoff.value("initial");
            AnnotationValue multiplier = backoff.value("multiplier");
            AnnotationValue max = backoff.value("max");
            declared.backoff(initial == null ? "" : initial.asString(), multiplier == null ? 2 : multiplier.asDouble(),
                    max == null ? "" : max.asString());
        });
        ifWritten(subscriber, "retryDelay", value -> {
            AnnotationValue min = value.asNested().value("min");
            AnnotationValue max = value.asNested().value("max");
            declared.retryDelay(min == null ? "" : min.asString(), max == null ? "" : max.asString());
        });
        ifWritten(subscriber, "concurrency", value -> declared.concurrency(value.asInt()));
        ifWritten(subscriber, "delay", value -> declared.delay(Delay.valueOf(value.asEnum())));
        ifWritten(subscriber, "waitingQueue", value -> declared.waitingQueue(value.asString()));
        ifWritten(subscriber, "delays", value -> declared.delays(List.of(value.asStringArray())));
        ifWritten(subscriber, "bindings", value -> {
            for (AnnotationInstance binding : value.asNestedArray()) {
                AnnotationValue type = binding.value("type");
                AnnotationValue keys = binding.value("keys");
                AnnotationValue arguments = binding.value("arguments");
                declared.binding(binding.value("exchange").asString(),
                        type == null ? ExchangeType.TOPIC : ExchangeType.valueOf(type.asEnum()),
                        keys == null ? List.of() : List.of(keys.asStringArray()),
                        arguments == null ? List.of() : List.of(arguments.asStringArray()));
            }
        });
        ifWritten(subscriber, "arguments", value -> declared.arguments(List.of(value.asStringArray())));
        ifWritten(subscriber, "consumerArguments", value -> declared.consumerArguments(List.of(value.asStringArray())));
        ifWritten(subscriber, "inbox", value -> declared.inbox(value.asBoolean()));
        ifWritten(subscriber, "broker", value -> declared.broker(value.asString().trim()));
        ifWritten(subscriber, "offset", value -> declared.offset(value.asString()));
        ifWritten(subscriber, "filter", value -> declared.filter(List.of(value.asStringArray())));
        AnnotationValue partitions = subscriber.value("partitions");
        AnnotationValue partitionKey = subscriber.value("partitionKey");
        declared.partitions(partitions == null ? 0 : partitions.asInt(),
                partitionKey == null ? "" : partitionKey.asString());
        return declared;
    }

    /** Jandex holds only the values written in the annotation, not its defaults. */
    private static void ifWritten(AnnotationInstance annotation, String name, Consumer<AnnotationValue> read) {
        AnnotationValue value = annotation.value(name);
        if (value != null) {
            read.accept(value);
        }
    }
}
