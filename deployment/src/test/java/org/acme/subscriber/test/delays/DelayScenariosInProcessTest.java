package org.acme.subscriber.test.delays;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.Delay;
import io.quarkiverse.rabbitmq.subscriber.Delivery;
import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.Fetched;
import io.quarkiverse.rabbitmq.subscriber.testing.InProcessBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The delay scenarios on the in-process broker, whose paused clock lets 30 seconds pass at once; and what only a
 * paused clock can show: not a millisecond early, head-of-queue blocking in one waiting queue and not in per-delay
 * queues, and the delayed exchange releasing in order of due time.
 */
class DelayScenariosInProcessTest extends DelayScenarios {

    static final String PLUGIN = "ds.plugin";

    @RegisterExtension
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, PluginHandlers.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.broker", "in-process")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.delayed-exchange.enabled", "true");

    @Inject
    InProcessBroker broker;

    @Inject
    PluginHandlers pluginHandlers;

    @Override
    void waitOut(Duration delay) {
        broker.advance(delay);
    }

    @Override
    Duration shortDelay() {
        return Duration.ofSeconds(30);
    }

    @Test
    void aBusyRefundComesBackAfterThirtySecondsAndNotBefore() throws Exception {
        publish(REFUNDS, "busy-then-ok");
        until(() -> handlers.attempts("busy-then-ok").size() == 1);
        assertEquals(1, depth("ds.refunds.retry"), "the copy waits in the broker's waiting queue");
        broker.advance(Duration.ofSeconds(29));
        assertEquals(List.of(1), handlers.attempts("busy-then-ok"), "not after 29 seconds");
        broker.advance(Duration.ofSeconds(1));
        assertEquals(List.of(1, 2), handlers.attempts("busy-then-ok"), "back after 30, the count raised");
    }

    @Test
    void fiveBusyAnswersEndInTheDeadLetterQueueWithCountFive() throws Exception {
        publish(REFUNDS, "busy-always");
        for (int i = 0; i < 4; i++) {
            until(() -> depth("ds.refunds.retry") == 1);
            broker.advance(Duration.ofSeconds(30));
        }
        until(() -> depth(REFUNDS_DEAD) == 1);
        assertEquals(List.of(1, 2, 3, 4, 5), handlers.attempts("busy-always"));
        Fetched dead = drain(REFUNDS_DEAD).get(0);
        assertEquals(5, ((Number) header(dead, "x-retry-count")).intValue());
        assertEquals(0, depth("ds.refunds.retry"));
    }

    /** One waiting queue releases from its head: a 1-second copy behind a 60-second one waits 60 seconds. */
    @Test
    void inOneWaitingQueueAShortDelayWaitsBehindALongOne() throws Exception {
        publish(TTL, "ttl-long:60000:once");
        until(() -> depth(TTL_WAITING) == 1);
        publish(TTL, "ttl-short:1000:once");
        until(() -> depth(TTL_WAITING) == 2);
        broker.advance(Duration.ofSeconds(1));
        assertEquals(List.of(1), handlers.attempts("ttl-short:1000:once"), "blocked behind the 60-second copy");
        broker.advance(Duration.ofSeconds(59));
        assertEquals(List.of(1, 2), handlers.attempts("ttl-long:60000:once"));
        assertEquals(List.of(1, 2), handlers.attempts("ttl-short:1000:once"), "released once the head expired");
    }

    @Test
    void withAQueuePerDelayAShortDelayDoesNotWaitBehindALongOne() throws Exception {
        publish(PER_DELAY, "per-long:60000:once");
        publish(PER_DELAY, "per-short:1000:once");
        until(() -> depth("ds.perdelay.retry.1m") == 1 && depth("ds.perdelay.retry.1s") == 1);
        broker.advance(Duration.ofSeconds(1));
        assertEquals(List.of(1, 2), handlers.attempts("per-short:1000:once"), "back after its own second");
        assertEquals(List.of(1), handlers.attempts("per-long:60000:once"));
        broker.advance(Duration.ofSeconds(59));
        assertEquals(List.of(1, 2), handlers.attempts("per-long:60000:once"));
    }

    @Test
    void anUnlistedDelayWaitsInTheNextLongerQueue() throws Exception {
        publish(PER_DELAY, "per-unlisted:5000:once");
        until(() -> depth("ds.perdelay.retry.30s") == 1);
        broker.advance(Duration.ofSeconds(29));
        assertEquals(List.of(1), handlers.attempts("per-unlisted:5000:once"), "never less than asked: 30 s");
        broker.advance(Duration.ofSeconds(1));
        assertEquals(List.of(1, 2), handlers.attempts("per-unlisted:5000:once"));
    }

    /** The delayed-message exchange releases each copy when it is due, whatever the order they came in. */
    @Test
    void theDelayedExchangeReleasesInOrderOfDueTime() throws Exception {
        publish(PLUGIN, "plugin-long:60000:once");
        publish(PLUGIN, "plugin-short:1000:once");
        until(() -> pluginHandlers.log.size() == 2);
        broker.advance(Duration.ofSeconds(1));
        // The two first deliveries run side by side on workers: their order is not the point; the copies' order is.
        assertEquals(java.util.Set.of("plugin-long:60000:once|1", "plugin-short:1000:once|1"),
                java.util.Set.copyOf(pluginHandlers.log.subList(0, 2)));
        assertEquals(List.of("plugin-short:1000:once|2"), pluginHandlers.log.subList(2, pluginHandlers.log.size()),
                "the 1-second copy is back, the 60-second one is not");
        broker.advance(Duration.ofSeconds(59));
        assertEquals("plugin-long:60000:once|2", pluginHandlers.log.get(3));
        assertEquals(0, depth(PLUGIN));
    }

    public static class PluginHandlers {
        final List<String> log = new CopyOnWriteArrayList<>();

        @Subscriber(value = PLUGIN, delay = Delay.PLUGIN, maxAttempts = 3, deadLetter = "ds.plugin.dead")
        Outcome plugin(String body, Delivery delivery) {
            log.add(body + "|" + delivery.attempt());
            Duration delay = Duration.ofMillis(Long.parseLong(body.split(":")[1]));
            return delivery.attempt() == 1 ? Outcome.retryAfter(delay) : Outcome.ack();
        }
    }
}
