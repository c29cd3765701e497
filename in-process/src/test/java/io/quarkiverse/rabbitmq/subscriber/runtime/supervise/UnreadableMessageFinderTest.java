package io.quarkiverse.rabbitmq.subscriber.runtime.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.inprocess.VirtualClock;
import io.quarkiverse.rabbitmq.subscriber.runtime.connection.Backoff;

/** The subscribers consume again one at a time after an unreadable message; the next cut names its queue. */
class UnreadableMessageFinderTest {

    final VirtualClock clock = new VirtualClock(0);
    final UnreadableMessageFinder finder = new UnreadableMessageFinder(clock, Duration.ofMillis(500));

    record Subscription(String queue, SubscriberSupervisor supervisor,
            SubscriberSupervisorTest.FakeBroker broker) implements UnreadableMessageFinder.Suspect {
    }

    Subscription subscription(String queue) throws Exception {
        SubscriberSupervisorTest.FakeBroker broker = new SubscriberSupervisorTest.FakeBroker();
        SubscriberSupervisor supervisor = new SubscriberSupervisor("Handler#" + queue, queue, broker,
                new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30), 0), clock, Runnable::run);
        supervisor.start(null);
        return new Subscription(queue, supervisor, broker);
    }

    void advance(long millis) {
        clock.advance(Duration.ofMillis(millis), () -> {
        });
    }

    @Test
    void theCutAfterASubscribersStartNamesItsQueue() throws Exception {
        List<Subscription> all = List.of(subscription("a"), subscription("b"), subscription("c"));
        finder.unreadable("Too many levels of nested tables/arrays (max 32)");
        all.forEach(s -> s.supervisor().connectionLost("cut"));
        finder.recovered(all);
        advance(0);
        // One at a time, 500 ms apart: a first, then b...
        assertEquals(1, all.get(0).broker().attached.get(0).consumedAgain);
        assertEquals(0, all.get(1).broker().attached.get(0).consumedAgain);
        advance(500);
        assertEquals(1, all.get(1).broker().attached.get(0).consumedAgain);
        // ...whose start is followed by the cut: b's queue holds the message.
        advance(20);
        finder.unreadable("Too many levels of nested tables/arrays (max 32)");
        assertEquals(SubscriberSupervisor.State.STOPPED, all.get(1).supervisor().state());
        assertTrue(all.get(1).supervisor().notConsumingBecause().contains("queue 'b' cannot be read"),
                all.get(1).supervisor().notConsumingBecause());
        // The round that was cut does not go on; the next one skips b.
        advance(1000);
        assertEquals(0, all.get(2).broker().attached.get(0).consumedAgain);
        finder.recovered(all);
        advance(0);
        assertEquals(2, all.get(0).broker().attached.get(0).consumedAgain);
        advance(500);
        assertEquals(1, all.get(2).broker().attached.get(0).consumedAgain);
        assertEquals(1, all.get(1).broker().attached.get(0).consumedAgain, "b stays stopped");
    }

    @Test
    void withoutAnUnreadableMessageAllConsumeAgainAtOnce() throws Exception {
        List<Subscription> all = List.of(subscription("a"), subscription("b"));
        all.forEach(s -> s.supervisor().connectionLost("cut"));
        finder.recovered(all);
        assertEquals(1, all.get(0).broker().attached.get(0).consumedAgain);
        assertEquals(1, all.get(1).broker().attached.get(0).consumedAgain);
    }
}
