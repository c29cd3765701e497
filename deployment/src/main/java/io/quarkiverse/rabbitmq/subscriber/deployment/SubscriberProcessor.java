package io.quarkiverse.rabbitmq.subscriber.deployment;

import static io.quarkiverse.rabbitmq.subscriber.deployment.SubscriberDotNames.*;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.invoke.Invoker;
import jakarta.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.IndexView;
import org.jboss.jandex.MethodInfo;

import io.quarkiverse.rabbitmq.subscriber.runtime.FoundSubscribers;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberRecorder;
import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionRules;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.topology.TopologyPlan;
import io.quarkus.arc.deployment.AutoAddScopeBuildItem;
import io.quarkus.arc.deployment.BeanArchiveIndexBuildItem;
import io.quarkus.arc.deployment.BeanRegistrationPhaseBuildItem;
import io.quarkus.arc.deployment.BeanRegistrationPhaseBuildItem.BeanConfiguratorBuildItem;
import io.quarkus.arc.deployment.InvokerFactoryBuildItem;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.arc.processor.AnnotationStore;
import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.BuildExtension;
import io.quarkus.arc.processor.BuiltinScope;
import io.quarkus.arc.processor.InvokerBuilder;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;
import io.quarkus.deployment.builditem.FeatureBuildItem;
import io.quarkus.deployment.builditem.nativeimage.ReflectiveHierarchyBuildItem;
import io.quarkus.deployment.execannotations.ExecutionModelAnnotationsAllowedBuildItem;
import io.quarkus.deployment.recording.RecorderContext;
import io.quarkus.runtime.RuntimeValue;

/**
 * Finds the {@code @Subscriber} methods, validates them (every problem of every method in one build failure), builds
 * an ArC invoker for each (no reflection at run time) and records what the runtime needs to consume their queues.
 */
class SubscriberProcessor {

    static final String FEATURE = "rabbitmq-subscriber";

    @BuildStep
    FeatureBuildItem feature() {
        return new FeatureBuildItem(FEATURE);
    }

    /**
     * {@code @Subscriber} methods are entrypoints: Quarkus refuses {@code @Blocking}, {@code @NonBlocking} and
     * {@code @RunOnVirtualThread} on any other method of an application class. (It lets every method of a class under
     * {@code io.quarkus.} or {@code io.quarkiverse.} through, which is why tests in those packages never saw it.)
     */
    @BuildStep
    ExecutionModelAnnotationsAllowedBuildItem executionModelAnnotationsAllowed() {
        return new ExecutionModelAnnotationsAllowedBuildItem(method -> method.hasDeclaredAnnotation(SUBSCRIBER));
    }

    @BuildStep
    AutoAddScopeBuildItem autoAddScope() {
        // A class that declares (or inherits) subscribers but no scope becomes a @Singleton bean, as @ConsumeEvent
        // classes do.
        return AutoAddScopeBuildItem.builder()
                .match((clazz, annotations, index) -> !Modifier.isAbstract(clazz.flags()) && !clazz.isInterface()
                        && declaresSubscribers(clazz, index))
                .defaultScope(BuiltinScope.SINGLETON).reason("Found @Subscriber methods").build();
    }

    /** Whether the class or one of its superclasses declares a @Subscriber method. */
    static boolean declaresSubscribers(ClassInfo clazz, IndexView index) {
        for (ClassInfo current = clazz; current != null; current = superclass(current, index)) {
            if (current.annotationsMap().containsKey(SUBSCRIBER)) {
                return true;
            }
        }
        return false;
    }

    private static ClassInfo superclass(ClassInfo clazz, IndexView index) {
        DotName superName = clazz.superName();
        return superName == null || superName.equals(OBJECT) ? null : index.getClassByName(superName);
    }

    /**
     * The methods of a bean class and of its superclasses, a method overridden in a subclass only once (the
     * subclass's: CDI does not inherit method annotations). Bridge methods are left out: they repeat the annotation of
     * the method they bridge to.
     */
    private static List<MethodInfo> methodsWithInherited(ClassInfo beanClass, IndexView index) {
        List<MethodInfo> methods = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (ClassInfo current = beanClass; current != null; current = superclass(current, index)) {
            for (MethodInfo method : current.methods()) {
                if (method.isSynthetic() || method.isConstructor() || method.isStaticInitializer()) {
                    continue;
                }
                if (seen.add(method.name() + method.parameterTypes())) {
                    methods.add(method);
                }
            }
        }
        return methods;
    }

    @BuildStep
    void collectSubscribers(BeanRegistrationPhaseBuildItem beanRegistration, InvokerFactoryBuildItem invokerFactory,
            SubscriberBuildTimeConfig buildTimeConfig, BuildProducer<SubscriberMethodBuildItem> subscribers,
            BuildProducer<BeanConfiguratorBuildItem> registrationPhaseMarker) {
        AnnotationStore annotations = beanRegistration.getContext().get(BuildExtension.Key.ANNOTATION_STORE);
        IndexView index = beanRegistration.getContext().get(BuildExtension.Key.INDEX);
        for (BeanInfo bean : beanRegistration.getContext().beans().classBeans()) {
            ClassInfo beanClass = bean.getTarget().get().asClass();
            for (MethodInfo method : methodsWithInherited(beanClass, index)) {
                AnnotationInstance subscriber = annotations.getAnnotation(method, SUBSCRIBER);
                if (subscriber == null) {
                    continue;
                }
                if (disabled(buildTimeConfig, subscriber.value().asString())) {
                    // queues."<queue>".enabled=false: the application starts without this subscriber.
                    org.jboss.logging.Logger.getLogger(SubscriberProcessor.class).infof("Queue '%s' is disabled "
                            + "(quarkus.rabbitmq-subscriber.queues.\"%s\".enabled=false): %s#%s is not started",
                            subscriber.value().asString(), subscriber.value().asString(), beanClass.name(),
                            method.name());
                    continue;
                }
                // The method's own execution annotations win; the class's apply when the method has none.
                AnnotationTarget modelSource = hasAny(annotations, method) ? method
                        : hasAny(annotations, method.declaringClass()) ? method.declaringClass() : beanClass;
                SubscriberMethodAnalysis analysis = SubscriberMethodAnalysis.analyse(method, subscriber,
                        annotations.hasAnnotation(modelSource, BLOCKING),
                        annotations.hasAnnotation(modelSource, NON_BLOCKING),
                        annotations.hasAnnotation(modelSource, RUN_ON_VIRTUAL_THREAD), buildTimeConfig);
                if (!method.declaringClass().name().equals(beanClass.name())) {
                    analysis.inheritedBy(beanClass.name().toString());
                }
                io.quarkus.arc.processor.InvokerInfo invoker = null;
                if (analysis.problems().isEmpty()) {
                    InvokerBuilder builder = invokerFactory.createInvoker(bean, method);
                    if (BuiltinScope.DEPENDENT.is(bean.getScope())) {
                        // A new instance per delivery, destroyed after the call (after an async result completes).
                        // Any other scope: the runtime passes the instance it looked up once (SubscriberDefinition
                        // .beanIdentifier), and the call allocates no clean-up tasks nor wraps the result for them.
                        builder.withInstanceLookup();
                    }
                    if (method.returnType().name().equals(UNI)) {
                        // The runtime only ever sees a CompletionStage: one path for both async return types.
                        builder.withReturnValueTransformer(
                                io.quarkiverse.rabbitmq.subscriber.runtime.consume.UniResults.class, "toCompletionStage");
                    }
                    invoker = builder.build();
                }
                subscribers.produce(new SubscriberMethodBuildItem(bean, method, analysis, invoker));
            }
        }
    }

    private static boolean disabled(SubscriberBuildTimeConfig config, String queue) {
        SubscriberBuildTimeConfig.QueueOverrides overrides = config.queues().get(queue);
        return overrides != null && !overrides.enabled();
    }

    private static boolean hasAny(AnnotationStore annotations, AnnotationTarget target) {
        return annotations.hasAnnotation(target, BLOCKING) || annotations.hasAnnotation(target, NON_BLOCKING)
                || annotations.hasAnnotation(target, RUN_ON_VIRTUAL_THREAD);
    }

    @BuildStep
    void validate(ValidationPhaseBuildItem validationPhase, List<SubscriberMethodBuildItem> subscribers,
            BeanArchiveIndexBuildItem beanArchive, SubscriberBuildTimeConfig buildTimeConfig,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<Throwable> problems = new ArrayList<>();
        for (SubscriberMethodBuildItem subscriber : sorted(subscribers)) {
            report(subscriber.problems(), problems);
        }
        List<SubscriptionSpec> subscriptions = subscriptions(subscribers);
        report(SubscriptionRules.unusedOverrides(buildTimeConfig.queues().keySet().stream()
                .filter(queue -> !disabled(buildTimeConfig, queue)).collect(java.util.stream.Collectors.toSet()),
                subscriptions), problems);
        // A @Subscriber where no bean can ever have it would consume nothing, silently: say so. A concrete class that
        // is not a bean was left out on purpose (@Vetoed, @IfBuildProperty, an excluded type): that one is quiet.
        java.util.Set<String> collected = new java.util.HashSet<>();
        subscribers.forEach(subscriber -> collected.add(SubscriberMethodAnalysis.describe(subscriber.method())));
        IndexView index = beanArchive.getIndex();
        List<String> orphans = new ArrayList<>();
        for (AnnotationInstance annotation : index.getAnnotations(SUBSCRIBER)) {
            if (annotation.target().kind() != AnnotationTarget.Kind.METHOD) {
                continue;
            }
            MethodInfo method = annotation.target().asMethod();
            // Bridge methods carry a copy of the annotation; they are never subscribers themselves.
            if (method.isSynthetic() || collected.contains(SubscriberMethodAnalysis.describe(method))) {
                continue;
            }
            ClassInfo declaring = method.declaringClass();
            if (declaring.isInterface()) {
                orphans.add(SubscriberMethodAnalysis.describe(method) + " is declared on an interface");
            } else if (Modifier.isAbstract(declaring.flags()) && index.getAllKnownSubclasses(declaring.name()).stream()
                    .allMatch(subclass -> Modifier.isAbstract(subclass.flags()))) {
                orphans.add(SubscriberMethodAnalysis.describe(method)
                        + " is declared on an abstract class no concrete class extends");
            }
        }
        orphans.stream().sorted().forEach(orphan -> problems.add(new IllegalStateException("@Subscriber method " + orphan
                + ", so it would consume nothing: declare it on a bean class or on a superclass of one")));
        Map<String, List<String>> byQueue = new LinkedHashMap<>();
        for (SubscriberMethodBuildItem subscriber : sorted(subscribers)) {
            byQueue.computeIfAbsent(subscriber.analysis().subscription.queue, q -> new ArrayList<>())
                    .add(subscriber.analysis().description);
        }
        report(SubscriptionRules.sharedQueues(byQueue), problems);
        report(SubscriptionRules.conflicts(subscriptions, buildTimeConfig.delayedExchange().enabled()
                ? buildTimeConfig.delayedExchange().name()
                : null), problems);
        report(SubscriptionRules.delayedExchangeProblems(buildTimeConfig.delayedExchange().enabled(),
                buildTimeConfig.delayedExchange().name()), problems);
        report(BrokerChoices.unknown(sorted(subscribers), index, io.quarkiverse.rabbitmq.subscriber.runtime.config.BrokerNames
                .configured(org.eclipse.microprofile.config.ConfigProvider.getConfig().getPropertyNames())), problems);
        boolean applicationCodecs = !validationPhase.getContext().beans()
                .withBeanType(io.quarkiverse.rabbitmq.subscriber.PayloadCodec.class).isEmpty();
        report(PayloadReaders.unreadable(sorted(subscribers), index, applicationCodecs), problems);
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(problems));
        }
    }

    private static void report(List<String> texts, List<Throwable> problems) {
        texts.forEach(text -> problems.add(new IllegalStateException(text)));
    }

    @BuildStep
    void registerPayloadsForReflection(List<SubscriberMethodBuildItem> subscribers, CombinedIndexBuildItem combined,
            BuildProducer<ReflectiveHierarchyBuildItem> reflective,
            BuildProducer<io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem> protobuf) {
        for (SubscriberMethodBuildItem subscriber : sorted(subscribers)) {
            SubscriberMethodAnalysis analysis = subscriber.analysis();
            org.jboss.jandex.ClassInfo type = analysis.payloadType == null ? null
                    : combined.getIndex().getClassByName(analysis.payloadType.name());
            if (type != null && PayloadReaders.isProtobuf(type, combined.getIndex())) {
                // The Protobuf codec finds the type's parser through its generated static getDefaultInstance().
                protobuf.produce(io.quarkus.deployment.builditem.nativeimage.ReflectiveClassBuildItem
                        .builder(type.name().toString()).methods().build());
            } else if (analysis.payloadKind == SubscriberDefinition.PayloadKind.JSON) {
                reflective.produce(ReflectiveHierarchyBuildItem.builder(analysis.payloadType)
                        .source(analysis.description).build());
            }
        }
    }

    @BuildStep
    @Record(ExecutionTime.RUNTIME_INIT)
    SyntheticBeanBuildItem record(SubscriberRecorder recorder, RecorderContext recorderContext,
            List<SubscriberMethodBuildItem> subscribers, TopologyPlanBuildItem topology) {
        List<SubscriberDefinition> definitions = new ArrayList<>();
        // The queues some subscription dead-letters to: their own subscribers must never reject a message away.
        List<SubscriberMethodBuildItem> sorted = sorted(subscribers);
        List<SubscriptionSpec> marked = SubscriptionSpec.markingDeadLetterReaders(
                sorted.stream().map(subscriber -> subscriber.analysis().subscription).toList());
        for (int i = 0; i < sorted.size(); i++) {
            SubscriberMethodBuildItem subscriber = sorted.get(i);
            if (subscriber.invoker() == null) {
                continue; // validation has failed the build
            }
            SubscriberMethodAnalysis analysis = subscriber.analysis();
            @SuppressWarnings("unchecked")
            RuntimeValue<Invoker<Object, Object>> invoker = (RuntimeValue<Invoker<Object, Object>>) (RuntimeValue<?>) recorderContext
                    .newInstance(subscriber.invoker().getClassName());
            SubscriptionSpec subscription = marked.get(i);
            definitions.add(new SubscriberDefinition(subscription, analysis.description, analysis.payloadKind,
                    analysis.jsonType != null ? analysis.jsonType : analysis.payloadType.toString(),
                    subscriber.method().parametersCount(), analysis.payloadIndex, analysis.deliveryIndex,
                    analysis.outputsIndex, analysis.returnKind, analysis.executionModel, invoker,
                    BuiltinScope.DEPENDENT.is(subscriber.bean().getScope()) ? null : subscriber.bean().getIdentifier(),
                    analysis.batchSize(), analysis.batchMaxWaitMillis()));
        }
        // The runtime's view of the subscribers is one immutable bean, created at runtime init.
        return SyntheticBeanBuildItem.configure(FoundSubscribers.class).scope(Singleton.class).unremovable()
                .setRuntimeInit().supplier(recorder.subscriptions(definitions, topology.plan())).done();
    }

    /** The whole topology the subscriptions need, computed once here; the runtime declares or checks it. */
    @BuildStep
    TopologyPlanBuildItem topology(List<SubscriberMethodBuildItem> subscribers) {
        return new TopologyPlanBuildItem(TopologyPlan.of(subscriptions(subscribers)));
    }

    private static List<SubscriptionSpec> subscriptions(List<SubscriberMethodBuildItem> subscribers) {
        return sorted(subscribers).stream().map(subscriber -> subscriber.analysis().subscription).toList();
    }

    /** Build steps see build items in no fixed order; sorting keeps the generated code reproducible. */
    static List<SubscriberMethodBuildItem> sorted(List<SubscriberMethodBuildItem> subscribers) {
        List<SubscriberMethodBuildItem> sorted = new ArrayList<>(subscribers);
        sorted.sort(Comparator.comparing((SubscriberMethodBuildItem s) -> s.analysis().subscription.queue)
                .thenComparing(s -> s.analysis().description));
        return sorted;
    }
}
