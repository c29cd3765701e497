package io.quarkiverse.rabbitmq.subscriber.runtime.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.InProcessServer;

/**
 * Where RabbitMQ 4.x differs from 3.10 the in-process broker follows the configured version. The conformance suite
 * compares with one server per run (3.10.8 unless {@code -Drabbitmq.test.port=5682}): these check both versions'
 * answers on the in-process broker alone, the documented 4.x default (a quorum queue without x-delivery-limit gets
 * 20) and what 3.10.8 and 4.0.5 were measured to answer.
 */
@Tag("wire")
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

    @Test
    void aHeadersExchangeComparesFloatsAndTimestampsAsThreeTenDoes() throws Exception {
        List<String> transcript = BrokerConformanceTest.transcript(new Target.InProcess(InProcessServer.Version.V3_10),
                BrokerConformanceTest.HEADER_NUMBERS);
        assertEquals(List.of("f=1.0: [f=1, f=1.0f]", "m=1000L: []", "n=1L: [n=1.0, n=1.0f, n=timestamp 1s]",
                "t=timestamp 1s: [t=timestamp 1s]"), transcript);
    }

    @Test
    void onFourIntegersAndFloatsDifferAndAHeaderTimestampIsInMilliseconds() throws Exception {
        List<String> transcript = BrokerConformanceTest.transcript(new Target.InProcess(InProcessServer.Version.V4),
                BrokerConformanceTest.HEADER_NUMBERS);
        assertEquals(List.of("f=1.0: [f=1.0f]", "m=1000L: [m=timestamp 1s]", "n=1L: []", "t=timestamp 1s: []"),
                transcript);
    }
}
