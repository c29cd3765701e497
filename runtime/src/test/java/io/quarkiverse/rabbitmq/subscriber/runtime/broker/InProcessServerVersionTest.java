package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;

/**
 * Where RabbitMQ 4.x differs from 3.10 the in-process broker follows the configured version. No 4.x server is here
 * to compare against: these are the documented 4.x defaults (a quorum queue without x-delivery-limit gets 20), checked
 * on the in-process broker alone.
 */
class InProcessServerVersionTest {

    static final BrokerConformanceTest.Scenario DEFAULT_LIMIT = run -> {
        String queue = run.queue("q");
        String dead = run.queue("dead");
        run.declareDeadLettering(queue, dead, Map.of("x-queue-type", "quorum"));
        run.publish(queue, "spent");
        for (int delivery = 1; delivery <= 25 && run.depth(dead) == 0; delivery++) {
            run.awaitDepth(queue, 1);
            Fetched fetched = run.channel.get(queue, false);
            run.channel.reject(fetched.envelope().getDeliveryTag(), true);
            run.note("delivery " + delivery);
            run.target.await(() -> run.depth(queue) + run.depth(dead) == 1);
        }
        run.note("dead: " + run.depth(dead));
    };

    @Test
    void onFourAQuorumQueueWithoutALimitDeadLettersAfterTwentyOneDeliveries() throws Exception {
        List<String> transcript = BrokerConformanceTest.transcript(new Target.InProcess(InProcessServer.Version.V4),
                DEFAULT_LIMIT);
        assertEquals("delivery 21", transcript.get(transcript.size() - 2));
        assertEquals("dead: 1", transcript.get(transcript.size() - 1));
    }

    @Test
    void onThreeTenItHasNoLimit() throws Exception {
        List<String> transcript = BrokerConformanceTest.transcript(new Target.InProcess(InProcessServer.Version.V3_10),
                DEFAULT_LIMIT);
        assertEquals("delivery 25", transcript.get(transcript.size() - 2));
        assertTrue(transcript.get(transcript.size() - 1).equals("dead: 0"));
    }
}
