package org.acme.subscriber.test.inprocess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkus.test.QuarkusUnitTest;

/**
 * The in-process scenarios whose applications agree on their configuration (the in-process broker, nothing else), run
 * in one application: one boot instead of six. Each scenario is an interface of its own, its queues its own, as its
 * test class was (issue 34 merged them: {@code InheritedSubscriberTest}, {@code ExchangePublishTest},
 * {@code PayloadTypesTest}, {@code BridgeMethodTest}, {@code RequestContextTest}, {@code InProcessRetryAfterTest};
 * {@code RetryCountClampScenario} and {@code MessagePropertiesScenario} came later).
 * QuarkusUnitTest runs only methods declared on the test class or its superclasses, not an interface's default
 * methods: each test here calls its scenario's method, one line each.
 */
class InProcessBasicsTest implements InheritedSubscriberScenario, ExchangePublishScenario, PayloadTypesScenario,
        BridgeMethodScenario, RequestContextScenario, InProcessRetryAfterScenario, RetryCountClampScenario,
        MessagePropertiesScenario {

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(
                    jar -> jar.addClasses(org.acme.subscriber.test.Scenarios.class, InheritedSubscriberScenario.class,
                            ExchangePublishScenario.class, PayloadTypesScenario.class, BridgeMethodScenario.class,
                            RequestContextScenario.class, InProcessRetryAfterScenario.class,
                            InheritedSubscriberScenario.BaseConsumer.class,
                            InheritedSubscriberScenario.AuditConsumer.class,
                            ExchangePublishScenario.Handler.class,
                            PayloadTypesScenario.Handlers.class,
                            PayloadTypesScenario.Refund.class,
                            PayloadTypesScenario.Checked.class,
                            BridgeMethodScenario.Handles.class,
                            BridgeMethodScenario.RefundHandler.class,
                            BridgeMethodScenario.Refund.class,
                            RequestContextScenario.Handlers.class,
                            RequestContextScenario.PerMessage.class,
                            InProcessRetryAfterScenario.Handlers.class,
                            InProcessRetryAfterScenario.Refund.class,
                            RetryCountClampScenario.class, RetryCountClampScenario.Handler.class,
                            MessagePropertiesScenario.class, MessagePropertiesScenario.Handler.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process");

    @Test
    public void theInheritedSubscriberConsumes() {
        InheritedSubscriberScenario.super.theInheritedSubscriberConsumes();
    }

    @Test
    public void aTopicExchangeRoutesByBindingAndDropsWhatNoBindingMatches() throws Exception {
        ExchangePublishScenario.super.aTopicExchangeRoutesByBindingAndDropsWhatNoBindingMatches();
    }

    @Test
    public void aMissingExchangeFailsTheCallAndTheNextPublishGoesThrough() {
        ExchangePublishScenario.super.aMissingExchangeFailsTheCallAndTheNextPublishGoesThrough();
    }

    @Test
    public void everyShapeDecodes() {
        PayloadTypesScenario.super.everyShapeDecodes();
    }

    @Test
    public void theBridgeIsNotASecondSubscriber() {
        BridgeMethodScenario.super.theBridgeIsNotASecondSubscriber();
    }

    @Test
    public void everyDeliveryHasItsOwnRequestScopedBeans() {
        RequestContextScenario.super.everyDeliveryHasItsOwnRequestScopedBeans();
    }

    @Test
    public void anAsynchronousHandlersRequestContextLastsUntilItsResultCompletes() {
        RequestContextScenario.super.anAsynchronousHandlersRequestContextLastsUntilItsResultCompletes();
    }

    @Test
    public void aBusyRefundComesBackAfterThirtySecondsAndNotBefore() {
        InProcessRetryAfterScenario.super.aBusyRefundComesBackAfterThirtySecondsAndNotBefore();
    }

    @Test
    public void queueViewShowsTheDeclaredArguments() {
        InProcessRetryAfterScenario.super.queueViewShowsTheDeclaredArguments();
    }

    @Test
    public void aQuorumQueueDeadLettersNothingWithoutARouteButStopsRedelivering() {
        InProcessRetryAfterScenario.super.aQuorumQueueDeadLettersNothingWithoutARouteButStopsRedelivering();
    }

    @Test
    public void aRetryCountBeyondEveryRangeIsTheCapAsTextAndAsANumber() {
        RetryCountClampScenario.super.aRetryCountBeyondEveryRangeIsTheCapAsTextAndAsANumber();
    }

    @Test
    public void aHandlerReadsThePropertiesAnOutgoingMessageSetWithoutTheClientsTypes() {
        MessagePropertiesScenario.super.aHandlerReadsThePropertiesAnOutgoingMessageSetWithoutTheClientsTypes();
    }
}
