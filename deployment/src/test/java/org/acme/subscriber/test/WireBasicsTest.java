package org.acme.subscriber.test;

import java.util.Arrays;
import java.util.stream.Stream;

import org.acme.subscriber.test.delays.DeletedWaitingQueueScenario;
import org.acme.subscriber.test.observe.ObserversAbsentScenario;
import org.acme.subscriber.test.operate.DeadLettersScenario;
import org.acme.subscriber.test.operate.SubscriptionsPauseScenario;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The RabbitMQ scenarios whose applications needed nothing but the broker's URL, run in one application: one boot
 * instead of eight (issue 34 merged {@code LargeMessageTest}, {@code WorkerSlowHeadTest},
 * {@code TopologyDeclarationTest}, {@code ExecutionModelTest}, {@code DeadLettersTest}, {@code SubscriptionsPauseTest},
 * {@code ObserversAbsentTest} and {@code DeletedWaitingQueueTest}). Not here: the classes that stop, pause by the
 * broker or resubscribe their application, halt a subscriber, or set any configuration of their own. Each scenario is an
 * interface of its own with its own queues; QuarkusUnitTest runs
 * only the methods a test class declares, so each test here calls its scenario's method.
 */
@Tag("wire")
class WireBasicsTest
        implements LargeMessageScenario, WorkerSlowHeadScenario, TopologyDeclarationScenario, ExecutionModelScenario,
        DeadLettersScenario, SubscriptionsPauseScenario, ObserversAbsentScenario, DeletedWaitingQueueScenario {

    static final String[] QUEUES = Stream.of(new String[] { LargeMessageScenario.QUEUE, WorkerSlowHeadScenario.QUEUE,
            TopologyDeclarationScenario.CLASSIC, TopologyDeclarationScenario.QUORUM, DeadLettersScenario.REFUNDS,
            DeadLettersScenario.REFUNDS_DEAD, SubscriptionsPauseScenario.QUEUE, "t.obs.absent",
            DeletedWaitingQueueScenario.DEFAULT,
            DeletedWaitingQueueScenario.DEFAULT + ".retry", DeletedWaitingQueueScenario.CONFIRMED,
            DeletedWaitingQueueScenario.CONFIRMED + ".retry" }, ExecutionModelScenario.QUEUES)
            .flatMap(Arrays::stream).toArray(String[]::new);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(QUEUES).givesUrl();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Scenarios.class, CapturedLogs.class, LargeMessageScenario.class,
                    WorkerSlowHeadScenario.class, TopologyDeclarationScenario.class, ExecutionModelScenario.class,
                    LargeMessageScenario.Handler.class, WorkerSlowHeadScenario.Handler.class,
                    TopologyDeclarationScenario.Handlers.class, ExecutionModelScenario.Handlers.class,
                    ExecutionModelScenario.BlockingByDefault.class, DeadLettersScenario.class,
                    DeadLettersScenario.Refunds.class, SubscriptionsPauseScenario.class,
                    SubscriptionsPauseScenario.Handlers.class, ObserversAbsentScenario.class,
                    ObserversAbsentScenario.Handler.class, DeletedWaitingQueueScenario.class,
                    DeletedWaitingQueueScenario.Handlers.class));

    @Test
    public void aBodyAboveAmqpClientsDefaultLimitIsDeliveredOnce() throws Exception {
        LargeMessageScenario.super.aBodyAboveAmqpClientsDefaultLimitIsDeliveredOnce();
    }

    @Test
    public void acksBehindARunningDeliveryDoNotCoverIt() throws Exception {
        WorkerSlowHeadScenario.super.acksBehindARunningDeliveryDoNotCoverIt();
    }

    @Test
    public void queuesAreDeclaredDurableWithTheirArguments() {
        TopologyDeclarationScenario.super.queuesAreDeclaredDurableWithTheirArguments();
    }

    @Test
    public void handlersRunWhereTheyShouldAndSettleOnTheEventLoop() {
        ExecutionModelScenario.super.handlersRunWhereTheyShouldAndSettleOnTheEventLoop();
    }

    @Test
    public void aDeadLetterIsShownThenReplayedOnceTheFaultIsFixed() {
        DeadLettersScenario.super.aDeadLetterIsShownThenReplayedOnceTheFaultIsFixed();
    }

    @Test
    public void aPausedSubscriberTakesNothingUntilResumed() throws Exception {
        SubscriptionsPauseScenario.super.aPausedSubscriberTakesNothingUntilResumed();
    }

    @Test
    public void noObserverIsRegistered() {
        ObserversAbsentScenario.super.noObserverIsRegistered();
    }

    @Test
    public void aDefaultCopyIsConfirmedTooSoTheOriginalIsRequeued() {
        DeletedWaitingQueueScenario.super.aDefaultCopyIsConfirmedTooSoTheOriginalIsRequeued();
    }

    @Test
    public void confirmedRequeuesTheOriginal() {
        DeletedWaitingQueueScenario.super.confirmedRequeuesTheOriginal();
    }
}
