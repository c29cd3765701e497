package io.quarkiverse.rabbitmq.subscriber.runtime.publish;

import java.util.Optional;
import java.util.function.Function;

import jakarta.enterprise.inject.Instance;

import io.quarkiverse.rabbitmq.subscriber.OutgoingMessage;
import io.smallrye.mutiny.Uni;

/**
 * With {@code outbox.enabled}: a send made inside a JTA transaction is written to the outbox in it when the {@code Uni}
 * is subscribed to (on the transaction's thread: it completes once the row is written, the only promise possible
 * before the commit), and published after the commit; outside a transaction, or without the outbox, the send goes as
 * it would. Subscribing to it after its transaction ended, or on another thread, fails: it would leave without the
 * guarantee.
 */
final class OutboxDiversion {

    /** Satisfied only with {@code outbox.enabled} (and Agroal and JTA); null where made without CDI (unit tests). */
    private final Instance<TransactionalSends> transactionalSends;
    /** {@link #transactionalSends} resolved once: empty without the outbox. */
    private volatile Optional<TransactionalSends> outbox;

    /** The broker its rows are published to after the commit. */
    private final String broker;

    OutboxDiversion(Instance<TransactionalSends> transactionalSends, String broker) {
        this.transactionalSends = transactionalSends;
        this.broker = broker;
    }

    /**
     * @param prepare the message as it is published (encoded, its properties built, its observation begun)
     * @param direct the send outside a transaction
     */
    Uni<Void> inTransactionOr(OutgoingMessage message, boolean mandatory, Function<OutgoingMessage, Prepared> prepare,
            Uni<Void> direct) {
        TransactionalSends sends = transactionalSends();
        if (sends == null) {
            return direct;
        }
        Object calledIn = sends.transaction();
        return Uni.createFrom().deferred(() -> {
            Object now = sends.transaction();
            if (calledIn == null && now == null) {
                return direct;
            }
            if (calledIn != null && !calledIn.equals(now)) {
                return Uni.createFrom().failure(new IllegalStateException("A message to "
                        + DirectReplyRequests.destination(message.exchange(), message.routingKey())
                        + " was sent inside a transaction and subscribed to outside it (after its end, or on another "
                        + "thread): subscribe to (or await) the Uni inside the transaction, so that it is written to "
                        + "the outbox and leaves with the commit"));
            }
            return Uni.createFrom().item(() -> {
                Prepared prepared = prepare.apply(message);
                try {
                    sends.write(broker, message.exchange(), message.routingKey(), mandatory, prepared.properties(),
                            prepared.body());
                } catch (RuntimeException e) {
                    prepared.observation().done(e);
                    throw e;
                }
                prepared.observation().done(null);
                return null;
            });
        });
    }

    private TransactionalSends transactionalSends() {
        Optional<TransactionalSends> resolved = outbox;
        if (resolved == null) {
            resolved = transactionalSends != null && transactionalSends.isResolvable()
                    ? Optional.of(transactionalSends.get())
                    : Optional.empty();
            outbox = resolved;
        }
        return resolved.orElse(null);
    }
}
