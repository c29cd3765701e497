package io.quarkiverse.rabbitmq.subscriber.deployment;

import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.*;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.DotName;
import org.jboss.jandex.MethodInfo;
import org.jboss.jandex.Type;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.ExecutionModel;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.PayloadKind;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.ReturnKind;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionDeclaration;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionRules;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;

/**
 * What a {@code @Subscriber} method declares, and every reason it cannot work. Its subscription is the annotation's
 * values, read from Jandex ({@link SubscriberAnnotation}), with the queue's overrides from
 * {@link SubscriberBuildTimeConfig} applied ({@link SubscriptionOverrides}), and is judged by
 * {@link SubscriptionRules}; the rules about the method itself (its execution model, modifiers, parameters and return
 * type) are here, with what one parameter's type means as a payload in {@link PayloadTypes}.
 */
final class SubscriberMethodAnalysis {

    /** The subscription, overrides applied: the value the runtime and the topology plan use. */
    final SubscriptionSpec subscription;
    /** The method, and the bean that inherits it where it is declared on a superclass. */
    String description;
    PayloadKind payloadKind;
    Type payloadType;
    /** The JSON payload's type as Jackson's TypeFactory.constructFromCanonical reads it. */
    String jsonType;
    int payloadIndex = -1;
    int deliveryIndex = -1;
    /** -1 when the method takes no {@code Outputs}. */
    int outputsIndex = -1;
    ReturnKind returnKind;
    final ExecutionModel executionModel;
    /**
     * {@code batch = @Batch(..)} as written; null for a handler of one delivery per call (a written size below 1 is an
     * error, not "no batches").
     */
    private BatchDeclaration batch;
    private final List<String> problems = new ArrayList<>();

    /** {@code @Batch(size)}: 0 for a handler of one delivery per call. */
    int batchSize() {
        return batch == null ? 0 : batch.size();
    }

    /** {@code @Batch(maxWait)} in milliseconds; 0 without batches. */
    long batchMaxWaitMillis() {
        return batch == null ? 0 : batch.maxWaitMillis();
    }

    private SubscriberMethodAnalysis(MethodInfo method, SubscriptionSpec subscription, ExecutionModel executionModel) {
        this.description = describe(method);
        this.subscription = subscription;
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
        SubscriptionDeclaration declared = SubscriberAnnotation.read(subscriber);
        SubscriberBuildTimeConfig.QueueOverrides overrides = config.queues().get(subscriber.value().asString());
        if (overrides != null) {
            SubscriptionOverrides.applyTo(declared, overrides);
        }
        declared.delayedExchange(config.delayedExchange().name());
        SubscriberMethodAnalysis analysis = new SubscriberMethodAnalysis(method, declared.build(), model);
        SubscriptionRules.problems(declared, config.declareTopology(analysis.subscription.broker),
                config.delayedExchange().enabled())
                .forEach(analysis::problem);
        analysis.batch = BatchDeclaration.read(subscriber.value("batch"), analysis.subscription.prefetch,
                analysis::problem);
        if (analysis.batch != null && analysis.subscription.partitioned()) {
            // A batch's items settle apart: one retried in place would let the others of its key pass it.
            analysis.problem("sets both batch and partitions: a partition is handled one message at a time, in "
                    + "order; remove one");
        }
        if (analysis.batch != null && analysis.subscription.stream()) {
            // Each item of a batch retries in place on its own: the stream's order would not hold.
            analysis.problem("sets batch on a stream: a stream's messages are handled one at a time, in order, each "
                    + "retried in place; remove batch");
        }
        analysis.checkExecutionModel(blocking, nonBlocking, virtualThread);
        analysis.checkModifiers(method);
        analysis.checkParameters(method);
        analysis.checkReturnType(returnType);
        return analysis;
    }

    private void checkExecutionModel(boolean blocking, boolean nonBlocking, boolean virtualThread) {
        if (nonBlocking && (blocking || virtualThread)) {
            problem("is annotated @NonBlocking and " + (blocking ? "@Blocking" : "@RunOnVirtualThread")
                    + ": choose one execution model");
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
            Type element = PayloadTypes.listElement(parameter);
            if (element != null && element.name().equals(DELIVERY)) {
                if (batch == null) {
                    problem("takes a List<Delivery> without batch: only a batch handler (@Subscriber(batch = "
                            + "@Batch(size = ...))) gets a list of deliveries; take a Delivery");
                } else if (deliveryIndex >= 0) {
                    problem("declares two List<Delivery> parameters: declare it once");
                }
                deliveryIndex = i;
                continue;
            }
            if (element != null && batch == null) {
                problem("takes a List payload (" + parameter + ") without batch: a List is a batch handler's list of "
                        + "messages. Add batch = @Batch(size = 100, maxWait = \"100ms\") for a list of messages per "
                        + "call, or take " + element.name().withoutPackagePrefix() + "[] (or a record holding the "
                        + "list) to decode one message whose body is a JSON array");
                payloadIndex = i;
                continue;
            }
            if (batch != null && parameter.name().equals(DELIVERY)) {
                problem("takes a Delivery but is a batch handler: take a List<Delivery> (the batch's deliveries, in "
                        + "the order of its payloads)");
                continue;
            }
            if (element != null) {
                // A batch handler: each message decodes into the list's element type.
                parameter = element;
            } else if (batch != null && !parameter.name().equals(OUTPUTS) && PayloadTypes.kind(parameter) != null) {
                problem("has batch = @Batch(...) but its payload is " + parameter + ": a batch handler takes a List<"
                        + parameter + "> (one item per message)");
                continue;
            }
            if (parameter.name().equals(DELIVERY)) {
                if (deliveryIndex >= 0) {
                    problem("declares two Delivery parameters: declare it once");
                }
                deliveryIndex = i;
                continue;
            }
            if (parameter.name().equals(OUTPUTS)) {
                if (outputsIndex >= 0) {
                    problem("declares two Outputs parameters: declare it once");
                }
                outputsIndex = i;
                continue;
            }
            PayloadKind kind = PayloadTypes.kind(parameter);
            if (kind == null) {
                problem("has parameter " + (i + 1) + " of unsupported type " + parameter
                        + ": a subscriber takes one payload (a JSON-decoded type, byte[], String, Buffer, JsonObject or JsonArray)"
                        + " and optionally a Delivery and Outputs");
                continue;
            }
            if (payloadIndex >= 0) {
                problem("declares two payload parameters (" + payloadType + " and " + parameter
                        + "): a subscriber takes one payload and optionally a Delivery and Outputs");
                continue;
            }
            payloadIndex = i;
            payloadKind = kind;
            payloadType = parameter;
            if (kind == PayloadKind.JSON) {
                try {
                    jsonType = JacksonTypeNames.canonical(parameter);
                } catch (IllegalArgumentException e) {
                    problem("has a payload of type " + parameter + " that cannot be decoded: " + e.getMessage());
                }
            }
        }
        if (payloadIndex < 0 && parameters.stream()
                .allMatch(p -> p.name().equals(DELIVERY) || p.name().equals(OUTPUTS) || PayloadTypes.kind(p) != null)) {
            problem("has no payload parameter: declare the type the message body decodes into");
        }
    }

    private void checkReturnType(Type type) {
        DotName name = type.name();
        // A batch handler returns a BatchOutcome where a single one returns an Outcome.
        DotName outcome = batch != null ? BATCH_OUTCOME : OUTCOME;
        if (type.kind() == Type.Kind.VOID) {
            returnKind = ReturnKind.VOID;
        } else if (name.equals(outcome)) {
            returnKind = ReturnKind.OUTCOME;
        } else if (name.equals(UNI) || name.equals(COMPLETION_STAGE) || name.equals(COMPLETABLE_FUTURE)) {
            Type argument = type.kind() == Type.Kind.PARAMETERIZED_TYPE
                    ? type.asParameterizedType().arguments().get(0)
                    : null;
            if (argument != null && argument.name().equals(outcome)) {
                returnKind = ReturnKind.ASYNC_OUTCOME;
            } else if (argument != null && argument.name().equals(VOID)) {
                returnKind = ReturnKind.ASYNC_VOID;
            }
        }
        if (returnKind == null && batch != null) {
            problem("returns " + type + ": a batch handler returns BatchOutcome, Uni<BatchOutcome>, "
                    + "CompletionStage<BatchOutcome>, void or Uni<Void> (an outcome per item: BatchOutcome.ack()"
                    + ".retry(3))");
        } else if (returnKind == null && (name.equals(BATCH_OUTCOME) || mentions(type, BATCH_OUTCOME))) {
            problem("returns " + type + " without batch: only a batch handler (@Subscriber(batch = @Batch(size = "
                    + "...)) with a List payload) returns a BatchOutcome; return Outcome");
        } else if (returnKind == null) {
            problem("returns " + type + ": a subscriber returns Outcome, Uni<Outcome>, CompletionStage<Outcome>, "
                    + "void or Uni<Void>");
        }
    }

    private static boolean mentions(Type type, DotName name) {
        return type.kind() == Type.Kind.PARAMETERIZED_TYPE
                && type.asParameterizedType().arguments().stream().anyMatch(argument -> argument.name().equals(name));
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
