package org.acme.subscriber.test.faults;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.acme.subscriber.test.BrokerScenarios;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import io.quarkiverse.rabbitmq.subscriber.QueueType;
import io.quarkiverse.rabbitmq.subscriber.Subscriber;
import io.quarkiverse.rabbitmq.subscriber.runtime.SubscriberStatus;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * A stream consumer whose stream connections are cut (reset, as a restarted node or a network fault would), while the
 * AMQP connection stays up: readiness is DOWN, naming the queue and saying it reads nothing, while the stream client
 * recovers; then UP, and the consumer resumes after its stored offset: what was written meanwhile is read, nothing is
 * skipped. The stream connections go through the proxy: the stream client sends every connection to the
 * address it was given when that is {@code localhost} with the {@code guest} user (its development set-up), so the
 * locator, the consumer and the offset tracking all cross it.
 */
@Tag("wire")
@Tag("stream")
class StreamConnectionCutTest extends BrokerScenarios {

    static final String STREAM = "t.stream.cut";
    static final ToxicProxy.Handle PROXY = ToxicProxy.shared(WireBroker.STREAM_PORT);

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues(STREAM).needsStreams();

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(Handlers.class, ToxicProxy.class))
            .overrideConfigKey("quarkus.rabbitmq-subscriber.url", "amqp://guest:guest@localhost:" + WireBroker.PORT)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(PROXY.port()))
            // The stream client reconnects with these waits too (its own default: 5 s).
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.initial-delay", "1s")
            .overrideConfigKey("quarkus.rabbitmq-subscriber.recovery.jitter", "0");

    @AfterAll
    static void closeProxy() {
        PROXY.close().run();
    }

    @Inject
    Handlers handlers;

    @Inject
    SubscriberStatus status;

    @Test
    void readinessIsDownWhileTheStreamClientRecoversAndNothingIsSkipped() throws Exception {
        publish(STREAM, "before");
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.received().equals(List.of("before")));
        await().atMost(Duration.ofSeconds(10)).until(() -> status.notReady().isEmpty());

        PROXY.stallThenReset().accept(Duration.ofMillis(50));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> status.notReady().containsKey("queue " + STREAM));
        String why = status.notReady().getOrDefault("queue " + STREAM, "(UP again already)");
        assertTrue(why.startsWith("not reading: consumer '") && why.contains("cannot reach stream '" + STREAM + "'"),
                why);
        publish(STREAM, "during");
        long cut = System.nanoTime();
        await().atMost(Duration.ofSeconds(60)).until(() -> status.notReady().isEmpty());
        long downMillis = (System.nanoTime() - cut) / 1_000_000;
        publish(STREAM, "after");
        await().atMost(Duration.ofSeconds(30)).until(() -> handlers.received().contains("after"));
        // "before" is read again only if its offset was not stored yet when the connections went (the re-read bound).
        assertEquals(List.of("before", "during", "after"), handlers.received().stream().distinct().toList(),
                why + ", read: " + handlers.received());
        // Back after the configured first wait (1 s) and a connection or two, not the stream client's own 5 s.
        assertTrue(downMillis < 4_500, "readiness was DOWN for " + downMillis + " ms after the cut: " + why);
    }

    @ApplicationScoped
    public static class Handlers {
        private final List<String> received = new CopyOnWriteArrayList<>();

        List<String> received() {
            return received;
        }

        @Subscriber(value = STREAM, type = QueueType.STREAM, offset = "first")
        void receive(String body) {
            received.add(body);
        }
    }
}
