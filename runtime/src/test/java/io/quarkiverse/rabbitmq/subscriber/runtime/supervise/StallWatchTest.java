package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerConnection;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.QueueState;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;

/** When the stall watch acts, and when it leaves a subscriber alone, on a clock the test moves. */
class StallWatchTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicInteger ready = new AtomicInteger();
    private final AtomicInteger declares = new AtomicInteger();
    private final AtomicLong taken = new AtomicLong();
    private final AtomicLong unsettled = new AtomicLong();

    private final Clock clock = new Clock() {
        @Override
        public long millis() {
            return now.get();
        }

        @Override
        public long nanos() {
            return now.get() * 1_000_000;
        }

        @Override
        public Timer schedule(Duration delay, Runnable task) {
            return () -> true;
        }
    };

    private final StallWatch.Watched subscriber = new StallWatch.Watched() {
        @Override
        public String queue() {
            return "orders";
        }

        @Override
        public SubscriberSupervisor supervisor() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long takenCount() {
            return taken.get();
        }

        @Override
        public long unsettledCount() {
            return unsettled.get();
        }
    };

    private final BrokerChannel channel = (BrokerChannel) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] { BrokerChannel.class }, (proxy, method, args) -> {
                if (method.getName().equals("declareQueuePassive")) {
                    declares.incrementAndGet();
                    return new QueueState((String) args[0], ready.get(), 1);
                }
                return null;
            });

    private final BrokerConnection connection = (BrokerConnection) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] { BrokerConnection.class },
            (proxy, method, args) -> method.getName().equals("createChannel") ? channel : null);

    private final StallWatch watch = new StallWatch(clock, Duration.ofSeconds(60), () -> List.of(subscriber));

    private String lookAfter(int seconds) throws Exception {
        now.addAndGet(seconds * 1000L);
        return watch.look(subscriber, connection);
    }

    @Test
    void readyMessagesThatNeverGoDownWhileNothingArrivesAreAStall() throws Exception {
        ready.set(4);
        assertNull(lookAfter(0), "first seen");
        assertNull(lookAfter(30), "idle from here");
        assertNull(lookAfter(30), "30 s");
        String stall = lookAfter(30);
        assertNotNull(stall, "60 s");
        assertTrue(stall.contains("queue 'orders' kept 4 message(s) ready for 60 s"), stall);
    }

    @Test
    void aBusySubscriberIsNeverAskedAndNeverStalls() throws Exception {
        ready.set(100);
        for (int i = 0; i < 10; i++) {
            taken.incrementAndGet();
            assertNull(lookAfter(30));
        }
        unsettled.set(3);
        for (int i = 0; i < 10; i++) {
            assertNull(lookAfter(30), "holds unsettled deliveries: handling, not stalled");
        }
        assertEquals(0, declares.get(), "a busy subscriber costs no passive declare");
    }

    @Test
    void aCountThatGoesDownIsAnotherConsumerAtWork() throws Exception {
        ready.set(1000);
        assertNull(lookAfter(0));
        for (int i = 0; i < 10; i++) {
            ready.addAndGet(i % 2 == 0 ? -50 : 40);
            assertNull(lookAfter(30), "the active consumer elsewhere takes messages");
        }
        ready.set(0);
        for (int i = 0; i < 5; i++) {
            assertNull(lookAfter(30), "nothing waits");
        }
    }

    @Test
    void eachRepeatWaitsTwiceAsLongUntilADeliveryComes() throws Exception {
        ready.set(7);
        lookAfter(0);
        lookAfter(30);
        assertNotNull(lookAfter(60), "after 60 s");
        // The same again (a waiting instance behind a slow active one): 120 s now.
        assertNull(lookAfter(30));
        assertNull(lookAfter(60));
        String second = lookAfter(60);
        assertNotNull(second, "after 120 s");
        assertTrue(second.contains("stall-timeout=120s"), second);
        // A delivery: back to 60 s.
        taken.incrementAndGet();
        assertNull(lookAfter(30));
        assertNull(lookAfter(30));
        assertNotNull(lookAfter(60));
    }
}
