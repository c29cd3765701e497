package io.quarkiverse.rabbitmq.subscriber.runtime.confirm;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.broker.PublishListener;

/**
 * The one engine of confirmed publishing, one per channel: every publish the runtime waits for the broker's answer to
 * (copies, dead letters and outputs; held copies and the outbox's relay; {@code RabbitPublisher.sendConfirmed};
 * dead-letter replays; the startup's permission check) is numbered, written and followed here, and told once what
 * RabbitMQ said of it ({@link PublishOutcome}): a confirm (often a multiple one), a nack, a {@code basic.return}, or the
 * channel's close, where only the oldest publish still in flight is the one a refusing close refused (RabbitMQ answers
 * in order and closes the channel at the publish it refuses). Returns that answer no tracked publish (a fire-and-forget
 * copy's on the same channel) go to {@code untracked}.
 * <p>
 * The channel's listener (the client's reader thread) hands each answer to {@code answers}: the subscriber's event
 * loop for copies (where their publisher runs, so nothing there is locked), or the reader thread itself for those who
 * only complete a future. The bookkeeping ({@link ConfirmTracker}) has a monitor of its own, never held while an answer
 * is told. Timeouts are the caller's: {@link ConfirmTimeouts} sweeps the publishes that waited too long.
 */
public final class ConfirmedChannel implements PublishListener {

    /** Where a return goes that answers no tracked publish. */
    @FunctionalInterface
    public interface Untracked {
        void returned(String replyText, String exchange, String routingKey, AMQP.BasicProperties properties,
                byte[] body);

        Untracked IGNORED = (replyText, exchange, routingKey, properties, body) -> {
        };
    }

    private final Executor answers;
    private final Untracked untracked;
    private final ConfirmTracker<Consumer<PublishOutcome>> unconfirmed = new ConfirmTracker<>();

    /**
     * @param answers where the answers are told: the caller's event loop, or {@link Runnable#run} on the reader thread
     * @param untracked told of the returns no tracked publish waits for
     */
    public ConfirmedChannel(Executor answers, Untracked untracked) {
        this.answers = answers;
        this.untracked = untracked;
    }

    /**
     * Numbers and writes one publish, followed until the broker answers: its number and its frame in one step (on the
     * channel's monitor, which a fire-and-forget publish on the same channel takes too), tracked before the frame is
     * written, forgotten if it could not be. Throws what the write threw; {@code answer} is then never told.
     *
     * @param publishedAt when, on the caller's clock (for {@link ConfirmTimeouts})
     * @return its sequence number, to {@link #forget} it
     */
    public long publish(BrokerChannel channel, String exchange, String routingKey, boolean mandatory,
            AMQP.BasicProperties properties, byte[] body, Consumer<PublishOutcome> answer, long publishedAt)
            throws IOException {
        synchronized (channel) {
            long sequenceNumber = channel.nextPublishSeqNo();
            unconfirmed.published(sequenceNumber, properties.getMessageId(), exchange, routingKey, answer, publishedAt);
            try {
                channel.publish(exchange, routingKey, mandatory, properties, body);
            } catch (IOException | RuntimeException e) {
                unconfirmed.forget(sequenceNumber, answer);
                throw e;
            }
            return sequenceNumber;
        }
    }

    /**
     * Stops following a publish whose answer no longer matters (its caller gave up waiting). Only that publish: a
     * channel reopened since numbers from 1 again.
     */
    public void forget(long sequenceNumber, Consumer<PublishOutcome> answer) {
        unconfirmed.forget(sequenceNumber, answer);
    }

    /** The publishes still unanswered that were published before {@code cutoff}, no longer followed. */
    List<Consumer<PublishOutcome>> publishedBefore(long cutoff) {
        return unconfirmed.publishedBefore(cutoff);
    }

    /** Whether no publish waits for an answer. */
    public boolean isEmpty() {
        return unconfirmed.isEmpty();
    }

    @Override
    public void acked(long sequenceNumber, boolean multiple) {
        answers.execute(() -> tell(unconfirmed.answered(sequenceNumber, multiple), PublishOutcome.CONFIRMED));
    }

    @Override
    public void nacked(long sequenceNumber, boolean multiple) {
        answers.execute(() -> tell(unconfirmed.answered(sequenceNumber, multiple), PublishOutcome.NACKED));
    }

    @Override
    public void returned(int replyCode, String replyText, String exchange, String routingKey,
            AMQP.BasicProperties properties, byte[] body) {
        // A return comes before the confirm of the same publish, which then finds nothing left to tell.
        answers.execute(() -> {
            Consumer<PublishOutcome> answer = unconfirmed.returned(properties.getMessageId(), exchange, routingKey);
            if (answer != null) {
                answer.accept(new PublishOutcome(PublishOutcome.Kind.RETURNED, replyText, false));
            } else {
                untracked.returned(replyText, exchange, routingKey, properties, body);
            }
        });
    }

    /** No answer comes any more: each publish in flight hears that its channel closed, and why. */
    @Override
    public void closed(String reason) {
        answers.execute(() -> {
            List<Consumer<PublishOutcome>> inFlight = unconfirmed.closed();
            boolean refused = PublishOutcome.isPublishRefusal(reason);
            for (int i = 0; i < inFlight.size(); i++) {
                inFlight.get(i).accept(new PublishOutcome(PublishOutcome.Kind.CLOSED, reason, refused && i == 0));
            }
        });
    }

    private static void tell(List<Consumer<PublishOutcome>> answered, PublishOutcome outcome) {
        for (Consumer<PublishOutcome> answer : answered) {
            answer.accept(outcome);
        }
    }
}
