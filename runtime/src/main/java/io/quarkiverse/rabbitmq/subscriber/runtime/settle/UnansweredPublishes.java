package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.publish.ConfirmTracker;
import io.vertx.core.Context;

/**
 * The confirmed publishes of one channel the broker has not answered yet, each told what it says of it
 * ({@link InFlightPublish}): confirms (often a multiple one), nacks, returns, no confirm within the timeout, the
 * channel's close. What the client's reader thread hears is handed to the subscriber's event loop at once, where
 * everything here runs (so nothing is locked). While RabbitMQ blocks the connection (a memory or disk alarm) nothing
 * times out: no confirm can come before the alarm clears.
 */
final class UnansweredPublishes implements PublishListener {

    /** Where a return goes that answers no tracked publish: a fire-and-forget copy's. */
    interface Untracked {
        void returned(String replyText, String routingKey, AMQP.BasicProperties properties, byte[] body);
    }

    private final Context eventLoop;
    private final Clock clock;
    private final long timeoutMillis;
    /** Whether RabbitMQ blocks the channel's connection now. */
    private final BooleanSupplier blocked;
    private final Untracked untracked;
    private final ConfirmTracker<InFlightPublish> unconfirmed = new ConfirmTracker<>();
    private boolean timerScheduled;
    private boolean closed;

    UnansweredPublishes(Context eventLoop, Clock clock, Duration timeout, BooleanSupplier blocked, Untracked untracked) {
        this.eventLoop = eventLoop;
        this.clock = clock;
        this.timeoutMillis = timeout.toMillis();
        this.blocked = blocked;
        this.untracked = untracked;
    }

    /** A publish is about to be written: its channel is open again if it had closed. */
    void writing() {
        closed = false;
    }

    /** A confirmed publish was written with this sequence number. */
    void published(long sequenceNumber, String messageId, String exchange, String routingKey, InFlightPublish tracked) {
        unconfirmed.published(sequenceNumber, messageId, exchange, routingKey, tracked, clock.millis());
        scheduleTimeoutCheck();
    }

    @Override
    public void acked(long sequenceNumber, boolean multiple) {
        eventLoop.runOnContext(ignored -> unconfirmed.answered(sequenceNumber, multiple).forEach(
                InFlightPublish::confirmed));
    }

    @Override
    public void nacked(long sequenceNumber, boolean multiple) {
        eventLoop.runOnContext(ignored -> unconfirmed.answered(sequenceNumber, multiple).forEach(
                InFlightPublish::nacked));
    }

    @Override
    public void returned(int replyCode, String replyText, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        eventLoop.runOnContext(ignored -> {
            InFlightPublish tracked = unconfirmed.returned(properties.getMessageId(), exchange, routingKey);
            if (tracked != null) {
                tracked.returned(replyText);
            } else {
                untracked.returned(replyText, routingKey, properties, body);
            }
        });
    }

    /** No confirm comes any more: each publish in flight hears that its channel closed, and why. */
    @Override
    public void closed(String reason) {
        eventLoop.runOnContext(ignored -> {
            closed = true;
            List<InFlightPublish> inFlight = unconfirmed.closed();
            // RabbitMQ answers publishes in order and closes the channel at the one it refuses: the confirms of those
            // before it came first, so the oldest still unconfirmed is the one refused (those after it were dropped).
            boolean refused = RefusedCopies.isPublishRefusal(reason);
            for (int i = 0; i < inFlight.size(); i++) {
                inFlight.get(i).closed(refused && i == 0, reason);
            }
        });
    }

    private void scheduleTimeoutCheck() {
        if (!timerScheduled && !closed) {
            timerScheduled = true;
            clock.schedule(Duration.ofMillis(Math.max(1, timeoutMillis / 2)),
                    () -> eventLoop.runOnContext(ignored -> checkTimeouts()));
        }
    }

    private void checkTimeouts() {
        timerScheduled = false;
        if (blocked.getAsBoolean()) {
            // Requeueing the originals now would only have them handled again and their copies published twice once
            // the broker reads the connection again.
            if (!unconfirmed.isEmpty()) {
                scheduleTimeoutCheck();
            }
            return;
        }
        for (InFlightPublish late : unconfirmed.publishedBefore(clock.millis() - timeoutMillis + 1)) {
            late.timedOut(timeoutMillis);
        }
        if (!unconfirmed.isEmpty()) {
            scheduleTimeoutCheck();
        }
    }
}
