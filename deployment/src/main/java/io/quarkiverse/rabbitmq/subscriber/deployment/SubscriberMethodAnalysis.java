package io.quarkiverse.rabbitmq.subscriber.deployment;

import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.*;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.PrimitiveType;
import org.jboss.jandex.Type;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.RetryPublish;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition.ExecutionModel;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition.PayloadKind;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberDefinition.ReturnKind;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.DelayLabel;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * What a {@code @Subscriber} method declares, read from its signature and annotations, and every reason it cannot
 * work. It reads Jandex and {@link SubscriberBuildTimeConfig}: the per-queue overrides
 * ({@code quarkus.rabbitmq-subscriber.queues."<queue>".*}) are applied over the annotation before the checks, which
 * also read {@code declare-topology} and the delayed exchange's settings. Nothing else, so each rule is one place to
 * look.
 */
final class SubscriberMethodAnalysis {

    /** Types that are never a payload: the transport's own objects, which a subscriber gets through Delivery. */
    private static final List<String> FOREIGN_PACKAGES = List.of("com.rabbitmq.client.", "io.vertx.core.eventbus.",
            "io.vertx.rabbitmq.", "org.eclipse.microprofile.reactive.messaging.", "io.smallrye.reactive.messaging.",
            "io.vertx.mutiny.", "io.smallrye.mutiny.", "java.util.concurrent.");

    final String queue;
    final boolean quorum;
    final int deliveryLimit;
    int prefetch;
    int maxAttempts;
    String deadLetter;
    RetryPublish retryPublish;
    /** Whether the annotation or an override names a retry publish policy (a quorum queue has none to choose). */
    boolean retryPublishSet;
    int concurrency;
    Delay delay;
    /** As written: empty for the strategy's default. */
    String waitingQueue;
    /** As written in {@code delays}. */
    List<String> delayTexts;
    /** {@code delays} in milliseconds, once read. */
    final List<Long> delays = new ArrayList<>();
    /** The method, and the bean that inherits it where it is declared on a superclass. */
    String description;
    PayloadKind payloadKind;
    Type payloadType;
    /** The JSON payload's type as Jackson's TypeFactory.constructFromCanonical reads it. */
    String jsonType;
    int payloadIndex = -1;
    int deliveryIndex = -1;
    ReturnKind returnKind;
    final ExecutionModel executionModel;
    private final List<String> problems = new ArrayList<>();

    private SubscriberMethodAnalysis(MethodInfo method, AnnotationInstance subscriber, ExecutionModel executionModel) {
        this.description = describe(method);
        this.queue = subscriber.value().asString();
        AnnotationValue type = subscriber.value("type");
        this.quorum = type != null && QueueType.QUORUM.name().equals(type.asEnum());
        AnnotationValue limit = subscriber.value("deliveryLimit");
        this.deliveryLimit = limit == null ? -1 : limit.asInt();
        AnnotationValue prefetchValue = subscriber.value("prefetch");
        this.prefetch = prefetchValue == null ? 0 : prefetchValue.asInt();
        AnnotationValue maxAttemptsValue = subscriber.value("maxAttempts");
        this.maxAttempts = maxAttemptsValue == null ? 0 : maxAttemptsValue.asInt();
        AnnotationValue deadLetterValue = subscriber.value("deadLetter");
        this.deadLetter = deadLetterValue == null ? "" : deadLetterValue.asString();
        AnnotationValue retryPublishValue = subscriber.value("retryPublish");
        this.retryPublishSet = retryPublishValue != null;
        this.retryPublish = retryPublishValue == null ? RetryPublish.DEFAULT
                : RetryPublish.valueOf(retryPublishValue.asEnum());
        AnnotationValue concurrencyValue = subscriber.value("concurrency");
        this.concurrency = concurrencyValue == null ? 0 : concurrencyValue.asInt();
        AnnotationValue delayValue = subscriber.value("delay");
        this.delay = delayValue == null ? Delay.IN_SERVICE : Delay.valueOf(delayValue.asEnum());
        AnnotationValue waitingQueueValue = subscriber.value("waitingQueue");
        this.waitingQueue = waitingQueueValue == null ? "" : waitingQueueValue.asString();
        AnnotationValue delaysValue = subscriber.value("delays");
        this.delayTexts = delaysValue == null ? List.of() : List.of(delaysValue.asStringArray());
        this.executionModel = executionModel;
    }

    static String describe(MethodInfo method) {
        StringBuilder text = new StringBuilder(method.declaringClass().name().toString()).append('#')
                .append(method.name()).append('(');
        for (int i = 0; i < method.parametersCount(); i++) {
            text.append(i == 0 ? "" : ", ").append(method.parameterType(i));
        }
        return text.append(')').toString();
    }

    static SubscriberMethodAnalysis analyse(MethodInfo method, AnnotationInstance subscriber, boolean blocking,
            boolean nonBlocking, boolean virtualThread, SubscriberBuildTimeConfig config) {
        Type returnType = method.returnType();
        boolean async = returnType.name().equals(UNI) || returnType.name().equals(COMPLETION_STAGE)
                || returnType.name().equals(COMPLETABLE_FUTURE);
        ExecutionModel model;
        if (virtualThread) {
            model = ExecutionModel.VIRTUAL_THREAD;
        } else if (blocking) {
            model = ExecutionModel.WORKER;
        } else if (nonBlocking || async) {
            model = ExecutionModel.EVENT_LOOP;
        } else {
            model = ExecutionModel.WORKER;
        }
        SubscriberMethodAnalysis analysis = new SubscriberMethodAnalysis(method, subscriber, model);
        SubscriberBuildTimeConfig.QueueOverrides overrides = config.queues().get(analysis.queue);
        if (overrides != null) {
            analysis.override(overrides);
        }
        analysis.checkAnnotation(blocking, nonBlocking, virtualThread);
        analysis.checkCap(config.declareTopology());
        analysis.checkDelay(config.delayedExchange().enabled());
        analysis.checkModifiers(method);
        analysis.checkParameters(method);
        analysis.checkReturnType(returnType);
        return analysis;
    }

    private void checkAnnotation(boolean blocking, boolean nonBlocking, boolean virtualThread) {
        if (queue.isBlank()) {
            problem("names no queue: @Subscriber(\"<queue>\") needs the queue to consume");
        }
        if (queue.startsWith("amq.")) {
            problem("consumes queue '" + queue + "': RabbitMQ reserves the 'amq.' prefix and refuses to declare it");
        }
        if (!quorum && deliveryLimit >= 0) {
            problem("sets deliveryLimit on a classic queue: only quorum queues count deliveries "
                    + "(use type = QueueType.QUORUM)");
        }
        if (deliveryLimit < -1) {
            problem("sets deliveryLimit = " + deliveryLimit + ": it must be 0 or more");
        }
        if (prefetch < 0) {
            problem("sets prefetch = " + prefetch + ": it must be 0 (the configured default) or more");
        }
        if (nonBlocking && (blocking || virtualThread)) {
            problem("is annotated @NonBlocking and " + (blocking ? "@Blocking" : "@RunOnVirtualThread")
                    + ": choose one execution model");
        }
    }

    /** The {@code quarkus.rabbitmq-subscriber.queues."<queue>".*} overrides win over the annotation. */
    private void override(SubscriberBuildTimeConfig.QueueOverrides overrides) {
        overrides.maxAttempts().ifPresent(value -> maxAttempts = value);
        overrides.deadLetter().ifPresent(value -> deadLetter = value);
        overrides.retryPublish().ifPresent(value -> {
            retryPublish = value;
            retryPublishSet = true;
        });
        overrides.prefetch().ifPresent(value -> prefetch = value);
        overrides.concurrency().ifPresent(value -> concurrency = value);
        overrides.delay().ifPresent(value -> delay = value);
        overrides.waitingQueue().ifPresent(value -> waitingQueue = value);
        overrides.delays().ifPresent(value -> delayTexts = value);
    }

    /** The delay rules: a strategy without its infrastructure, or settings it would ignore, fail the build. */
    private void checkDelay(boolean delayedExchangeEnabled) {
        if (delay == Delay.PLUGIN && !delayedExchangeEnabled) {
            problem("sets delay = PLUGIN but the delayed-message exchange is not enabled: set "
                    + "quarkus.rabbitmq-subscriber.delayed-exchange.enabled=true on a broker with the "
                    + "rabbitmq_delayed_message_exchange plugin, or use delay = DLX_TTL (no plugin needed)");
        }
        boolean waits = delay == Delay.DLX_TTL || delay == Delay.DLX_TTL_PER_DELAY;
        if (!waitingQueue.isEmpty() && !waits) {
            problem("sets waitingQueue = '" + waitingQueue + "' with delay = " + delay + ", which has no waiting "
                    + "queue: use delay = DLX_TTL or DLX_TTL_PER_DELAY, or remove waitingQueue");
        }
        String waiting = waitingQueue.isEmpty() ? queue + ".retry" : waitingQueue;
        if (waits && waiting.equals(queue)) {
            problem("sets waitingQueue = '" + waiting + "', its own queue: copies would be consumed at once instead "
                    + "of waiting; name another queue");
        }
        if (waits && waiting.equals(deadLetter)) {
            problem("sets waitingQueue = '" + waiting + "', its dead-letter queue: dead letters would expire back "
                    + "into work; name another queue");
        }
        if (waits && waiting.startsWith("amq.")) {
            problem("sets waitingQueue = '" + waiting + "': RabbitMQ reserves the 'amq.' prefix");
        }
        if (delay != Delay.DLX_TTL_PER_DELAY) {
            if (!delayTexts.isEmpty()) {
                problem("lists delays " + delayTexts + " with delay = " + delay + ": only DLX_TTL_PER_DELAY declares "
                        + "a waiting queue per delay; use it, or remove delays");
            }
            return;
        }
        if (delayTexts.isEmpty()) {
            problem("sets delay = DLX_TTL_PER_DELAY without delays: list the delays its handler asks for, e.g. "
                    + "delays = {\"1s\", \"30s\"}, one waiting queue is declared for each");
        }
        for (String text : delayTexts) {
            long millis;
            try {
                millis = DelayLabel.parse(text);
            } catch (IllegalArgumentException e) {
                problem("lists delay " + e.getMessage());
                continue;
            }
            if (millis <= 0) {
                problem("lists delay '" + text + "': a delay must be longer than zero");
            } else if (delays.contains(millis)) {
                problem("lists the delay " + DelayLabel.of(millis) + " twice ('" + text + "')");
            } else {
                delays.add(millis);
            }
        }
    }

    /** The cap and dead-letter rules: a declaration that could never cap or dead-letter anything fails the build. */
    private void checkCap(boolean declareTopology) {
        boolean hasDeadLetter = !deadLetter.isEmpty();
        if (maxAttempts < 0) {
            problem("sets maxAttempts = " + maxAttempts + ": it must be 0 (no cap) or more");
        }
        if (concurrency < 0) {
            problem("sets concurrency = " + concurrency + ": it must be 0 (up to the prefetch) or more");
        }
        if (hasDeadLetter && deadLetter.equals(queue)) {
            problem("sets deadLetter = '" + deadLetter + "', its own queue: dead letters would be consumed again "
                    + "as work; name another queue");
        }
        if (hasDeadLetter && deadLetter.startsWith("amq.")) {
            problem("sets deadLetter = '" + deadLetter + "': RabbitMQ reserves the 'amq.' prefix");
        }
        if (quorum) {
            if (maxAttempts > 0 && !hasDeadLetter) {
                problem("sets maxAttempts on quorum queue '" + queue + "' without deadLetter: half a declaration. "
                        + "The server would discard a message at the cap; name the dead-letter queue (deadLetter), "
                        + "or use deliveryLimit alone if discarding is what you want");
            }
            if (hasDeadLetter && maxAttempts <= 0) {
                problem("sets deadLetter on quorum queue '" + queue + "' without maxAttempts: half a declaration. "
                        + "The route would only ever see dropped messages; set maxAttempts too");
            }
            if (maxAttempts > 0 && deliveryLimit >= 0) {
                problem("sets both maxAttempts and deliveryLimit on quorum queue '" + queue + "': maxAttempts already "
                        + "sets x-delivery-limit (maxAttempts - 1); remove deliveryLimit");
            }
            if (retryPublishSet) {
                problem("sets retryPublish on quorum queue '" + queue + "': the server counts and dead-letters "
                        + "there, so there is no copy to publish; remove it");
            }
            if ((maxAttempts > 0 || deliveryLimit >= 0) && !declareTopology) {
                problem("caps quorum queue '" + queue + "' (" + (maxAttempts > 0 ? "maxAttempts" : "deliveryLimit")
                        + ") while quarkus.rabbitmq-subscriber.declare-topology is false: the cap would apply nowhere "
                        + "(a queue declared elsewhere keeps its owner's arguments). Set the limit and route on the "
                        + "queue itself (its declaration or a policy) and remove them here, or turn declaration on");
            }
        } else if (hasDeadLetter && maxAttempts <= 0) {
            problem("sets deadLetter on classic queue '" + queue + "' without maxAttempts: the route would never be "
                    + "used. Set maxAttempts, or give the queue its own dead-letter exchange to keep dropped messages");
        }
    }

    private void checkModifiers(MethodInfo method) {
        if (Modifier.isPrivate(method.flags())) {
            problem("is private: a subscriber method must be at least package-private so it can be invoked "
                    + "without reflection");
        }
        if (Modifier.isStatic(method.flags())) {
            problem("is static: a subscriber method must be an instance method of a bean");
        }
        if (Modifier.isAbstract(method.flags())) {
            problem("is abstract: declare @Subscriber on the implementation");
        }
    }

    private void checkParameters(MethodInfo method) {
        List<Type> parameters = method.parameterTypes();
        for (int i = 0; i < parameters.size(); i++) {
            Type parameter = parameters.get(i);
            if (parameter.name().equals(DELIVERY)) {
                if (deliveryIndex >= 0) {
                    problem("declares two Delivery parameters: declare it once");
                }
                deliveryIndex = i;
                continue;
            }
            PayloadKind kind = payloadKind(parameter);
            if (kind == null) {
                problem("has parameter " + (i + 1) + " of unsupported type " + parameter
                        + ": a subscriber takes one payload (a JSON-decoded type, byte[], String, Buffer or JsonObject)"
                        + " and optionally a Delivery");
                continue;
            }
            if (payloadIndex >= 0) {
                problem("declares two payload parameters (" + payloadType + " and " + parameter
                        + "): a subscriber takes one payload and optionally a Delivery");
                continue;
            }
            payloadIndex = i;
            payloadKind = kind;
            payloadType = parameter;
            if (kind == PayloadKind.JSON) {
                try {
                    jsonType = canonical(parameter);
                } catch (IllegalArgumentException e) {
                    problem("has a payload of type " + parameter + " that cannot be decoded: " + e.getMessage());
                }
            }
        }
        if (payloadIndex < 0 && parameters.stream().allMatch(p -> p.name().equals(DELIVERY) || payloadKind(p) != null)) {
            problem("has no payload parameter: declare the type the message body decodes into");
        }
    }

    private static PayloadKind payloadKind(Type type) {
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

    private void checkReturnType(Type type) {
        DotName name = type.name();
        if (type.kind() == Type.Kind.VOID) {
            returnKind = ReturnKind.VOID;
        } else if (name.equals(OUTCOME)) {
            returnKind = ReturnKind.OUTCOME;
        } else if (name.equals(UNI) || name.equals(COMPLETION_STAGE) || name.equals(COMPLETABLE_FUTURE)) {
            Type argument = type.kind() == Type.Kind.PARAMETERIZED_TYPE
                    ? type.asParameterizedType().arguments().get(0)
                    : null;
            if (argument != null && argument.name().equals(OUTCOME)) {
                returnKind = ReturnKind.ASYNC_OUTCOME;
            } else if (argument != null && argument.name().equals(VOID)) {
                returnKind = ReturnKind.ASYNC_VOID;
            }
        }
        if (returnKind == null) {
            problem("returns " + type + ": a subscriber returns Outcome, Uni<Outcome>, CompletionStage<Outcome>, "
                    + "void or Uni<Void>");
        }
    }

    /** The subscription this method declares, overrides applied: the value the runtime and the topology plan use. */
    SubscriptionSpec subscription(SubscriberBuildTimeConfig config) {
        return subscription(config, false);
    }

    /** @param readsDeadLetters whether its queue is another subscription's dead-letter queue */
    SubscriptionSpec subscription(SubscriberBuildTimeConfig config, boolean readsDeadLetters) {
        return SubscriptionSpec.builder(queue)
                .type(quorum ? QueueType.QUORUM : QueueType.CLASSIC)
                .maxAttempts(maxAttempts)
                .deadLetter(deadLetter)
                .deliveryLimit(deliveryLimit)
                .retryPublish(retryPublish)
                .prefetch(prefetch)
                .concurrency(concurrency)
                .delay(delay)
                .waitingQueue(waitingQueue)
                .delays(delays)
                .delayedExchange(config.delayedExchange().name())
                .readsDeadLetters(readsDeadLetters)
                .build();
    }

    void inheritedBy(String beanClass) {
        description = description + " (inherited by " + beanClass + ")";
    }

    void problem(String text) {
        problems.add("@Subscriber method " + description + " " + text);
    }

    List<String> problems() {
        return problems;
    }
}
