package org.acme.subscriber.test.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import com.rabbitmq.stream.Environment;
import com.rabbitmq.stream.OffsetSpecification;

import io.quarkiverse.rabbitmq.subscriber.testsupport.RabbitAdmin;
import io.quarkiverse.rabbitmq.subscriber.testsupport.WireBroker;
import io.quarkus.test.QuarkusUnitTest;

/**
 * The stream scenarios on RabbitMQ's stream protocol (RabbitMQ 4.0.5 and 4.3.6 in CI, whose stream listeners
 * .ci/rabbitmq4 and .ci/rabbitmq43 enable; skipped on the stock 3.10.8, naming rabbitmq_stream); and what only a real
 * broker shows: a message written before the application started is read from the first offset, and the offset the
 * consumer stores on the server under the application's name.
 */
@Tag("wire")
@Tag("stream")
class StreamsOnRabbitMqTest extends StreamScenarios {

    static final String CONSUMER = "t-streams-app";

    @RegisterExtension
    @Order(1)
    static final WireBroker broker = WireBroker.queues("t.stream.orders", "t.stream.orders.dead", "t.stream.regions",
            "t.stream.invoices-0", "t.stream.invoices-1", "t.stream.invoices-2", "t.stream.replaced")
            .exchanges("t.stream.invoices")
            .needsStreams().givesUrl().before(admin -> {
                // Written before the application starts: a consumer from "first" reads what the log already holds.
                admin.declare("t.stream.orders", java.util.Map.of("x-queue-type", "stream"));
                admin.publish("t.stream.orders", "early");
            });

    @RegisterExtension
    @Order(2)
    static final QuarkusUnitTest config = new QuarkusUnitTest()
            .withApplicationRoot(jar -> jar.addClasses(APPLICATION))
            .overrideConfigKey("quarkus.application.name", CONSUMER)
            .overrideConfigKey("quarkus.rabbitmq-subscriber.stream-port", String.valueOf(WireBroker.STREAM_PORT));

    @Override
    void until(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(30)).until(condition::getAsBoolean);
    }

    @Override
    long depth(String queue) {
        return RabbitAdmin.withResult(admin -> admin.depth(queue));
    }

    @Test
    void whatTheLogHeldBeforeTheStartIsReadAndTheSettledOffsetIsStored() {
        until(() -> handlers.bodies("t.stream.orders").contains("early"));
        assertEquals("early|1|0", handlers.log.get(0), "read from the first offset, before anything published later");
        send("t.stream.orders", "later");
        until(() -> handlers.bodies("t.stream.orders").contains("later"));
        String later = handlers.log.stream().filter(line -> line.startsWith("later|")).findFirst().orElseThrow();
        long offset = Long.parseLong(later.substring(later.lastIndexOf('|') + 1));
        // The consumer stores the offset of the last settled message under the application's name.
        try (Environment environment = Environment.builder()
                .uri("rabbitmq-stream://guest:guest@127.0.0.1:" + WireBroker.STREAM_PORT + "/%2f")
                // The default factory loads compression libraries the extension leaves out.
                .compressionCodecFactory(compression -> null).build()) {
            await().atMost(Duration.ofSeconds(10)).until(() -> storedOffset(environment) >= offset);
        }
    }

    /** What the server stored under the application's consumer name, read through a consumer of that name. */
    private static long storedOffset(Environment environment) {
        com.rabbitmq.stream.Consumer reader = environment.consumerBuilder().stream("t.stream.orders").name(CONSUMER)
                .offset(OffsetSpecification.next()).manualTrackingStrategy().builder()
                .messageHandler((context, message) -> {
                }).build();
        try {
            return reader.storedOffset();
        } catch (RuntimeException e) {
            return -1;
        } finally {
            reader.close();
        }
    }

    /**
     * The super stream is RabbitMQ's own: the stream client sees its partitions, and a key the client's producer routes
     * lands in the partition the extension's publisher sends that key to.
     */
    @Test
    void theSuperStreamIsOneTheStreamClientRoutesTheSameWay() throws Exception {
        for (int account = 0; account < 6; account++) {
            publisher.sendToPartitionConfirmed("t.stream.invoices", "x-" + account, "ours").await()
                    .atMost(Duration.ofSeconds(10));
        }
        try (Environment environment = environment()) {
            com.rabbitmq.stream.Producer producer = environment.producerBuilder().superStream("t.stream.invoices")
                    .routing(message -> message.getApplicationProperties().get("account").toString()).producerBuilder()
                    .build();
            java.util.concurrent.CountDownLatch confirmed = new java.util.concurrent.CountDownLatch(6);
            for (int account = 0; account < 6; account++) {
                producer.send(producer.messageBuilder().applicationProperties().entry("account", "x-" + account)
                        .messageBuilder().addData("theirs".getBytes()).build(), status -> confirmed.countDown());
            }
            org.junit.jupiter.api.Assertions.assertTrue(confirmed.await(10, java.util.concurrent.TimeUnit.SECONDS));
            producer.close();
            java.util.Map<String, java.util.Set<String>> partitionsOfKey = new java.util.concurrent.ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicInteger read = new java.util.concurrent.atomic.AtomicInteger();
            java.util.List<com.rabbitmq.stream.Consumer> readers = new java.util.ArrayList<>();
            for (int partition = 0; partition < 3; partition++) {
                String stream = "t.stream.invoices-" + partition;
                readers.add(environment.consumerBuilder().stream(stream).offset(OffsetSpecification.first())
                        .messageHandler((context, message) -> {
                            Object account = message.getApplicationProperties() == null ? null
                                    : message.getApplicationProperties().get("account");
                            if (account != null && account.toString().startsWith("x-")) {
                                partitionsOfKey.computeIfAbsent(account.toString(),
                                        key -> java.util.concurrent.ConcurrentHashMap.newKeySet()).add(stream);
                                read.incrementAndGet();
                            }
                        }).build());
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> read.get() >= 12);
            readers.forEach(com.rabbitmq.stream.Consumer::close);
            for (int account = 0; account < 6; account++) {
                assertEquals(1, partitionsOfKey.get("x-" + account).size(),
                        "x-" + account + ": the extension and the stream client chose the same partition: "
                                + partitionsOfKey);
            }
        }
    }

    /**
     * A stream deleted while the application reads it: the client closes its consumer without a word; the
     * subscription sees it, subscribes again, which declares the stream again, and reads what is written to it next.
     */
    @Test
    void aStreamDeletedWhileReadIsDeclaredAndReadAgain() {
        send("t.stream.replaced", "before");
        until(() -> handlers.replaced.contains("before"));
        RabbitAdmin.with(admin -> admin.delete("t.stream.replaced"));
        await().atMost(Duration.ofSeconds(30)).until(() -> RabbitAdmin.withResult(admin -> admin.exists("t.stream.replaced")));
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            // Until the new consumer reads (it starts at the next message): each try writes one more.
            send("t.stream.replaced", "after");
            return handlers.replaced.contains("after");
        });
    }

    private static Environment environment() {
        return Environment.builder().uri("rabbitmq-stream://guest:guest@127.0.0.1:" + WireBroker.STREAM_PORT + "/%2f")
                // The default factory loads compression libraries the extension leaves out.
                .compressionCodecFactory(compression -> null).build();
    }
}
