package io.quarkiverse.rabbitmq.subscriber.runtime.connection;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The executor amqp-client hands consumer callbacks to: it runs each one at once, on the connection's reader thread.
 * <p>
 * amqp-client's default is a pool of its own threads, so every burst of deliveries cost a thread hand-off (a wake-up
 * on the reader's side, a context switch, a pool thread's run) before our callback even started: about 4-5 µs of CPU
 * per message in a warm drain, a fifth of the application's own cost, on a 2-core machine where the broker needs the
 * same cores. Our callbacks never block and never talk to the broker: a delivery is queued for the subscriber's event
 * loop or handed to a worker, a cancellation queues a supervisor step. So the pool bought nothing.
 * <p>
 * Running inline keeps amqp-client's own guarantees: callbacks of one channel still run in order, one at a time (its
 * work pool serves a channel's callbacks in blocks and marks the channel busy meanwhile, so a callback that led to
 * another would queue it, not nest it).
 */
final class ReaderThreadDispatch extends AbstractExecutorService {

    static final ReaderThreadDispatch INSTANCE = new ReaderThreadDispatch();

    private ReaderThreadDispatch() {
    }

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    /** Shared by every connection, and holds no thread: nothing to shut down. */
    @Override
    public void shutdown() {
    }

    @Override
    public List<Runnable> shutdownNow() {
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return false;
    }
}
