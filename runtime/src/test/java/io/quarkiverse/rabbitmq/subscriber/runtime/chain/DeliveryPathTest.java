package io.quarkiverse.rabbitmq.subscriber.runtime.chain;

import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkiverse.rabbitmq.subscriber.Outcome;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.WallClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.Codecs;
import io.quarkiverse.rabbitmq.subscriber.runtime.codec.PayloadEncoder;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.DeliveryRoute;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures;
import io.quarkiverse.rabbitmq.subscriber.runtime.consume.SubscriberConsumer;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.InFlight;
import io.quarkiverse.rabbitmq.subscriber.runtime.flow.UnsettledBytesTest;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers;
import io.quarkiverse.rabbitmq.subscriber.runtime.observe.OutcomeCounters;
import io.quarkiverse.rabbitmq.subscriber.runtime.output.ReplyTargets;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyOutlet;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.CopyPolicy;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.SettlementStats;
import io.quarkiverse.rabbitmq.subscriber.runtime.settle.Settler;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriberDefinition;
import io.quarkiverse.rabbitmq.subscriber.runtime.subscription.SubscriptionSpec;
import io.quarkiverse.rabbitmq.subscriber.runtime.supervise.KillSwitch;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.VertxInternal;

/**
 * The way of one plain delivery (no feature: no inbox, outputs, batch, kill switch, observer), from the consumer to its
 * handler and from its result to the ack frame, through the real chain and settler over a channel that records the
 * frame: the runtime's classes and packages on the handler's stack and on the ack frame's, printed (what a contributor
 * reads to follow a delivery) and bounded, so that the way does not grow back without anyone deciding it should.
 */
class DeliveryPathTest {

    private static final String RUNTIME = "io.quarkiverse.rabbitmq.subscriber.runtime.";
    /** Classes of the runtime on the three stacks together, and packages crossed: the core's, consume and settle. */
    private static final int MOST_CLASSES = 16;
    private static final int MOST_PACKAGES = 2;

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close();
    }

    @ParameterizedTest
    @EnumSource(value = SubscriberDefinition.ExecutionModel.class, names = { "EVENT_LOOP", "WORKER" })
    void aPlainDeliveryCrossesFewClasses(SubscriberDefinition.ExecutionModel model) throws Exception {
        List<StackTraceElement[]> atHandler = new CopyOnWriteArrayList<>();
        List<StackTraceElement[]> atAck = new CopyOnWriteArrayList<>();
        List<StackTraceElement[]> atReject = new CopyOnWriteArrayList<>();
        BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                    if (method.getName().equals("ack")) {
                        atAck.add(Thread.currentThread().getStackTrace());
                    }
                    if (method.getName().equals("reject")) {
                        atReject.add(Thread.currentThread().getStackTrace());
                    }
                    return method.getName().equals("frameMax") ? 131072 : null;
                });
        Context loop = ((VertxInternal) vertx).createEventLoopContext();
        InFlight inFlight = new InFlight();
        SubscriberDefinition definition = StageFixtures.definition(SubscriptionSpec.builder("q").build(), model, -1,
                (instance, arguments) -> {
                    atHandler.add(Thread.currentThread().getStackTrace());
                    return "\"drop\"".equals(arguments[0]) || "drop".equals(arguments[0]) ? Outcome.drop() : Outcome.ack();
                });
        WallClock clock = new WallClock(vertx);
        Settler[] settler = new Settler[1];
        StageFixtures.onLoop(loop, () -> {
            try {
                settler[0] = new Settler(channel, "q", loop, new SettlementStats(), inFlight, null, null,
                        new CopyPolicy("x-retry-count", null, false, false, Duration.ofSeconds(1), false),
                        new CopyOutlet(channel, false, () -> false), UnsettledBytesTest.unbounded(), clock,
                        Observers.NONE);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
        DeliveryRoute route = DeliveryChain.of(definition,
                new Codecs(new ObjectMapper(), java.util.List.of(), Long.MAX_VALUE).decoder(definition),
                new PayloadEncoder(new ObjectMapper()), ReplyTargets.ANY, settler[0], loop, Observers.NONE,
                new OutcomeCounters(), KillSwitch.NONE, clock, inFlight,
                (handler, instance, arguments) -> handler.invoke(instance, arguments));
        SubscriberConsumer consumer = new SubscriberConsumer("q", route, inFlight, "x-retry-count", reason -> {
        }, null);
        consumer.delivered("tag", new com.rabbitmq.client.Envelope(1, false, "", "q"),
                new com.rabbitmq.client.AMQP.BasicProperties(), "\"m1\"".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        consumer.delivered("tag", new com.rabbitmq.client.Envelope(2, false, "", "q"),
                new com.rabbitmq.client.AMQP.BasicProperties(), "drop".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        await().atMost(Duration.ofSeconds(5)).until(() -> !atHandler.isEmpty() && !atAck.isEmpty() && !atReject.isEmpty());

        // The handler's stack shows the way in; the reject's, sent as the verdict is settled, the way of a result to its
        // frame; the ack's, the flush that sends the acks gathered meanwhile.
        Set<String> handlerClasses = runtimeClasses(atHandler.get(0));
        Set<String> rejectClasses = runtimeClasses(atReject.get(0));
        Set<String> ackClasses = runtimeClasses(atAck.get(0));
        Set<String> classes = new TreeSet<>(handlerClasses);
        classes.addAll(rejectClasses);
        classes.addAll(ackClasses);
        Set<String> packages = new TreeSet<>();
        for (String name : classes) {
            packages.add(name.substring(0, name.lastIndexOf('.')));
        }
        System.out.printf("[delivery path] %s: %d classes at the handler %s, %d at a verdict's frame %s, %d at the "
                + "ack frame %s; %d in all, %d packages %s%n", model, handlerClasses.size(), handlerClasses,
                rejectClasses.size(), rejectClasses, ackClasses.size(), ackClasses, classes.size(), packages.size(),
                packages);
        org.junit.jupiter.api.Assertions.assertTrue(classes.size() <= MOST_CLASSES,
                "the way of a plain delivery crosses " + classes.size() + " classes: " + classes);
        org.junit.jupiter.api.Assertions.assertTrue(packages.size() <= MOST_PACKAGES,
                "the way of a plain delivery crosses " + packages.size() + " packages: " + packages);
    }

    /** The runtime's top-level classes on a stack, from the first of the runtime's frames (the test's left out). */
    private static Set<String> runtimeClasses(StackTraceElement[] stack) {
        List<String> names = new ArrayList<>();
        for (StackTraceElement frame : stack) {
            String name = frame.getClassName();
            if (name.startsWith(RUNTIME) && !name.contains("Test")) {
                int nested = name.indexOf('$');
                names.add(nested < 0 ? name : name.substring(0, nested));
            }
        }
        Set<String> distinct = new TreeSet<>();
        for (String name : names) {
            distinct.add(name.substring(RUNTIME.length()));
        }
        return distinct;
    }
}
