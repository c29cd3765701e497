package io.quarkiverse.rabbitmq.subscriber.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.quarkiverse.rabbitmq.subscriber.runtime.config.SubscriberBuildTimeConfig;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.InboxCleanup;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.InboxOutboxFiguresReader;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.InboxTransactions;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.OutboxAfterCommit;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.OutboxGroupPublisher;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.OutboxRelay;
import io.quarkiverse.rabbitmq.subscriber.runtime.inbox.TransactionOutbox;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.metrics.OutboxMeters;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.InboxRules;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition.ReturnKind;
import io.quarkus.agroal.spi.JdbcDataSourceBuildItem;
import io.quarkus.arc.deployment.AdditionalBeanBuildItem;
import io.quarkus.arc.deployment.ValidationPhaseBuildItem.ValidationErrorBuildItem;
import io.quarkus.deployment.Capabilities;
import io.quarkus.deployment.Capability;
import io.quarkus.deployment.annotations.BuildProducer;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.metrics.MetricsCapabilityBuildItem;
import io.quarkus.runtime.metrics.MetricsFactory;

/**
 * The inbox of {@code inbox = true} subscriptions: what the application must have for it ({@link InboxRules}, every
 * problem reported with the others of the build), and its bean, registered only where the application has JTA and
 * Agroal, so an application without them never loads one of their classes.
 */
class InboxProcessor {

    @BuildStep
    void validateInbox(List<SubscriberMethodBuildItem> subscribers, Capabilities capabilities,
            List<JdbcDataSourceBuildItem> datasources, SubscriberBuildTimeConfig config,
            BuildProducer<ValidationErrorBuildItem> errors) {
        List<String> methods = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (SubscriberMethodBuildItem subscriber : SubscriberProcessor.sorted(subscribers)) {
            SubscriberMethodAnalysis analysis = subscriber.analysis();
            if (!analysis.subscription.inbox) {
                continue;
            }
            methods.add(analysis.description);
            problems.addAll(InboxRules.problems(analysis.description, analysis.subscription, analysis.executionModel,
                    analysis.returnKind == ReturnKind.OUTCOME,
                    analysis.returnKind == ReturnKind.ASYNC_OUTCOME || analysis.returnKind == ReturnKind.ASYNC_VOID,
                    analysis.batchSize() > 0));
        }
        problems.addAll(0, InboxRules.applicationProblems(methods, config.outbox().enabled(),
                capabilities.isPresent(Capability.AGROAL),
                capabilities.isPresent(Capability.TRANSACTIONS), config.inbox().datasource(),
                datasources.stream().map(datasource -> datasource.isDefault() ? InboxRules.DEFAULT_DATASOURCE
                        : datasource.getName()).sorted().toList()));
        if (!problems.isEmpty()) {
            errors.produce(new ValidationErrorBuildItem(problems.stream()
                    .<Throwable> map(IllegalStateException::new).toList()));
        }
    }

    /**
     * Where the application has a JDBC datasource and JTA (whether a subscription has an inbox is only known once the
     * beans are registered; the beans do nothing without one), with the outbox's gauges where Micrometer is too.
     */
    @BuildStep
    void inboxBean(Capabilities capabilities, SubscriberBuildTimeConfig config, Optional<MetricsCapabilityBuildItem> metrics,
            BuildProducer<AdditionalBeanBuildItem> beans) {
        if (capabilities.isPresent(Capability.AGROAL) && capabilities.isPresent(Capability.TRANSACTIONS)) {
            beans.produce(AdditionalBeanBuildItem.unremovableOf(InboxTransactions.class));
            beans.produce(AdditionalBeanBuildItem.unremovableOf(OutboxRelay.class));
            beans.produce(AdditionalBeanBuildItem.unremovableOf(InboxCleanup.class));
            beans.produce(AdditionalBeanBuildItem.unremovableOf(InboxOutboxFiguresReader.class));
            beans.produce(AdditionalBeanBuildItem.unremovableOf(OutboxGroupPublisher.class));
            if (config.outbox().enabled()) {
                beans.produce(AdditionalBeanBuildItem.unremovableOf(TransactionOutbox.class));
                beans.produce(AdditionalBeanBuildItem.unremovableOf(OutboxAfterCommit.class));
            }
            if (config.metrics().enabled() && metrics
                    .map(capability -> capability.metricsSupported(MetricsFactory.MICROMETER)).orElse(false)) {
                beans.produce(AdditionalBeanBuildItem.unremovableOf(OutboxMeters.class));
            }
        }
    }
}
