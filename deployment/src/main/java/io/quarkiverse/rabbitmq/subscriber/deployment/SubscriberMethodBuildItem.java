package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.List;

import org.jboss.jandex.MethodInfo;

import io.quarkus.arc.processor.BeanInfo;
import io.quarkus.arc.processor.InvokerInfo;
import io.quarkus.builder.item.MultiBuildItem;

/**
 * One {@code @Subscriber} method as analysed at bean registration. {@link #problems()} lists what makes it unusable;
 * the validation step reports all of them at once, so the invoker exists only for methods without problems.
 */
final class SubscriberMethodBuildItem extends MultiBuildItem {

    private final BeanInfo bean;
    private final MethodInfo method;
    private final SubscriberMethodAnalysis analysis;
    private final InvokerInfo invoker;

    SubscriberMethodBuildItem(BeanInfo bean, MethodInfo method, SubscriberMethodAnalysis analysis, InvokerInfo invoker) {
        this.bean = bean;
        this.method = method;
        this.analysis = analysis;
        this.invoker = invoker;
    }

    BeanInfo bean() {
        return bean;
    }

    MethodInfo method() {
        return method;
    }

    SubscriberMethodAnalysis analysis() {
        return analysis;
    }

    InvokerInfo invoker() {
        return invoker;
    }

    List<String> problems() {
        return analysis.problems();
    }
}
