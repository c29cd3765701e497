package io.quarkiverse.rabbitmq.subscriber.runtime.clock;

import java.time.Duration;

import io.vertx.core.Vertx;

/** Real time: Vert.x timers, so a task runs on an event loop, never on a thread of its own. */
public final class WallClock implements Clock {

    private final Vertx vertx;

    public WallClock(Vertx vertx) {
        this.vertx = vertx;
    }

    @Override
    public long millis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanos() {
        return System.nanoTime();
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
        long id = vertx.setTimer(Math.max(1, delay.toMillis()), ignored -> task.run());
        return () -> vertx.cancelTimer(id);
    }
}
