package io.quarkiverse.rabbitmq.subscriber.runtime.consume;

import static io.quarkiverse.rabbitmq.subscriber.runtime.consume.StageFixtures.delivery;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.impl.ContextInternal;
import io.vertx.core.impl.VertxInternal;

/**
 * Results of handlers that ran off the loop reach it: at once, or, while the loop is due to wake anyway (a paced ack
 * flush's timer), at that wake-up, before the timer's own task, and only as many as may wait so. Offered from the
 * test's thread, as a worker would.
 */
class CompletionsTest {

    private final Vertx vertx = Vertx.vertx();
    private final ContextInternal loop = ((VertxInternal) vertx).createEventLoopContext();
    private final List<String> onLoop = new CopyOnWriteArrayList<>();
    private final Completions.Sink sink = (context, delivery, result) -> {
        if (!Context.isOnEventLoopThread()) {
            throw new AssertionError("a result was drained off the event loop");
        }
        onLoop.add("result:" + delivery.deliveryTag());
    };

    @AfterEach
    void close() {
        vertx.close();
    }

    /**
     * Lets the loop's thread start, run what it was given and block waiting for work: a result queued while it runs
     * tasks is drained in that same pass, which is not what these tests look at. Nothing observable says the thread
     * blocks, hence the pause.
     */
    private void loopAsleep() {
        AtomicBoolean ran = new AtomicBoolean();
        loop.runOnContext(ignored -> ran.set(true));
        await().atMost(Duration.ofSeconds(5)).untilTrue(ran);
        await().pollDelay(Duration.ofMillis(50)).until(() -> true);
    }

    /** Nothing reaches the loop for 150 ms (polled every 10: Awaitility's default 100 would not fit the window). */
    private void stillNothingOnTheLoop() {
        await().pollInterval(Duration.ofMillis(10)).during(Duration.ofMillis(150)).atMost(Duration.ofMillis(400))
                .until(onLoop::isEmpty);
    }

    @Test
    void aResultWakesTheLoopWhenNoWakeUpIsDue() {
        Completions completions = new Completions(loop, results -> false, sink);
        completions.offer(loop, delivery(1), "ack");
        await().atMost(Duration.ofSeconds(5)).until(() -> onLoop.equals(List.of("result:1")));
    }

    @Test
    void whileAFlushTimerIsSetAResultWaitsForItsWakeUpAndIsDrainedBeforeTheTimersTask() {
        AtomicBoolean timerSet = new AtomicBoolean(true);
        loop.runOnContext(ignored -> vertx.setTimer(600, id -> {
            // As Acknowledgements' flush: the flag goes down as the timer's task runs.
            timerSet.set(false);
            onLoop.add("timer");
        }));
        loopAsleep();
        Completions completions = new Completions(loop, results -> timerSet.get(), sink);
        completions.offer(loop, delivery(1), "ack");
        completions.offer(loop, delivery(2), "ack");
        stillNothingOnTheLoop();
        await().atMost(Duration.ofSeconds(5)).until(() -> onLoop.size() == 3);
        assertEquals(List.of("result:1", "result:2", "timer"), onLoop,
                "the results went in the wake-up the timer brought, ahead of its task (its acks in that flush)");
    }

    @Test
    void theResultThatMayNotWaitWakesTheLoop() {
        // Three may wait, the fourth may not (as a quarter of a prefetch of 16), and nothing else wakes the loop.
        Completions completions = new Completions(loop, results -> results < 4, sink);
        System.err.println("DEBUG loop class " + loop.nettyEventLoop().getClass() + " "
                + (loop.nettyEventLoop() instanceof io.netty.util.concurrent.SingleThreadEventExecutor));
        loopAsleep();
        for (long tag = 1; tag <= 3; tag++) {
            completions.offer(loop, delivery(tag), "ack");
        }
        stillNothingOnTheLoop();
        completions.offer(loop, delivery(4), "ack");
        await().atMost(Duration.ofSeconds(5)).until(() -> onLoop.size() == 4);
        assertEquals(List.of("result:1", "result:2", "result:3", "result:4"), onLoop);
    }

    @Test
    void aTimerThatFiredAsTheResultWasQueuedLeavesTheWakeUpToTheResult() {
        // Set when looked at first, gone when looked at again: the timer fired in between, so nothing else wakes it.
        AtomicInteger looks = new AtomicInteger();
        Completions completions = new Completions(loop, results -> looks.incrementAndGet() == 1, sink);
        completions.offer(loop, delivery(1), "ack");
        await().atMost(Duration.ofSeconds(5)).until(() -> onLoop.equals(List.of("result:1")));
        assertEquals(2, looks.get());
    }
}
