package org.acme.subscriber.test;

import java.util.Arrays;
import java.util.stream.Stream;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The RabbitMQ scenarios whose applications needed nothing but the broker's URL, run in one application: one boot
 * instead of four (issue 34 merged {@code LargeMessageTest}, {@code WorkerSlowHeadTest}, {@code TopologyDeclarationTest}
 * and {@code ExecutionModelTest}). Each scenario is an interface of its own with its own queues; QuarkusUnitTest runs
 * only the methods a test class declares, so each test here calls its scenario's method.
 */
@Tag("wire")
class WireBasicsTest
        implements LargeMessageScenario, WorkerSlowHeadScenario, TopologyDeclarationScenario, ExecutionModelScenario {

    static final String[] QUEUES = Stream.of(new String[] { LargeMessageScenario.QUEUE, WorkerSlowHeadScenario.QUEUE,
            TopologyDeclarationScenario.CLASSIC, TopologyDeclarationScenario.QUORUM }, ExecutionModelScenario.QUEUES)
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
                    ExecutionModelScenario.BlockingByDefault.class));

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
}
