package org.acme.subscriber.test.faults;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.testsupport.ExclusiveResource;
import io.quarkus.test.QuarkusUnitTest;

/**
 * {@link DeadLetterQueueNodeDownTest} on the three RabbitMQ 4.3.6 nodes ({@code .ci/cluster43}: k1, k2, k3 on
 * 5711-5713), where RabbitMQ answers for a classic queue on a stopped node "queue ... process is stopped by supervisor"
 * (3.10: "home node ... is down or inaccessible"; the soak run found the quorum subscription waiting on 4.3.6 too), and
 * refuses (nacks) a copy sent to it where 3.10 returns it.
 */
@EnabledIf(value = "org.acme.subscriber.test.faults.KhepriMinorityTest#clusterRunning", disabledReason = "needs the "
        + "RabbitMQ 4.3 cluster on 127.0.0.1:5711-5713: run .ci/cluster43 start first (.ci/run does)")
class DeadLetterQueueNodeDownOn43Test {

    static final DeadLetterQueueNodeDownTest.Cluster CLUSTER = new DeadLetterQueueNodeDownTest.Cluster("k", 5711,
            ClusterNodes::ctl43);

    /** One class at a time on these nodes: KhepriMinorityTest cuts k1 off. */
    @RegisterExtension
    @Order(0)
    static final ExclusiveResource exclusive = ExclusiveResource.named("cluster43");

    @RegisterExtension
    @Order(1)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .setBeforeAllCustomizer(() -> DeadLetterQueueNodeDownTest.deadLetterQueueOnNode1(CLUSTER))
            .setAfterAllCustomizer(() -> DeadLetterQueueNodeDownTest.deleteQueues(CLUSTER))
            .withApplicationRoot(jar -> jar.addClasses(DeadLetterQueueNodeDownTest.class,
                    DeadLetterQueueNodeDownTest.Cluster.class, DeadLetterQueueNodeDownTest.Handler.class, ClusterNodes.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@127.0.0.1")
            // Never k1: the application's connection stays up while k1 is down, and is cut on purpose.
            .overrideConfigKey("quarkus.rabbitmq-subscriber.addresses", "127.0.0.1:5712,127.0.0.1:5713")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.connection-name", DeadLetterQueueNodeDownTest.CONNECTION)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "200ms")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.max-delay", "1s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.refused-copy-pause", "500ms");

    @Inject
    DeadLetterQueueNodeDownTest.Handler handler;

    @Test
    void consumesItsQuorumQueueWhileItsDeadLetterQueuesNodeIsDown() throws Exception {
        DeadLetterQueueNodeDownTest.consumesWhileNode1IsDown(CLUSTER, handler);
    }
}
