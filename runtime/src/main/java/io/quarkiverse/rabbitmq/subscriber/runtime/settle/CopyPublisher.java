package io.quarkiverse.rabbitmq.subscriber.runtime.settle;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import org.jboss.logging.Logger;

import com.rabbitmq.client.AMQP;

import io.quarkiverse.rabbitmq.subscriber.runtime.broker.BrokerChannel;
import io.quarkiverse.rabbitmq.subscriber.runtime.clock.Clock;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmTimeouts;
import io.quarkiverse.rabbitmq.subscriber.runtime.confirm.ConfirmedChannel;
import io.vertx.core.Context;

/**
 * Publishes a subscription's copies, dead letters and outputs, {@code mandatory}, a group at a time (a copy is a group
 * of one, a delivery's outputs another), and answers each group once: {@link PublishAnswer}. What an answer means for
 * the delivery is its publisher's to say ({@link CopyAnswers}, the outputs stage); here they are all alike. They go on
 * a channel of their own on the publishing connection ({@code copy-channel=publishing-connection}), or on the
 * delivery's own channel.
 * <ul>
 * <li>Confirmed ones are followed by the confirm engine ({@link ConfirmedChannel}, timed out by
 * {@link ConfirmTimeouts}) until the broker answers ({@link GroupedPublish}).</li>
 * <li>On a channel of their own every one is confirmed: nothing orders that channel's publishes before the delivery
 * channel's acks.</li>
 * <li>Fire-and-forget copies ({@code DEFAULT} on the delivery's channel) are answered once written: their original is
 * acked then (the channel carries the copy to the broker before the ack); a return of one goes to
 * {@link ReturnedAfterAck}.</li>
 * </ul>
 */
final class CopyPublisher {

    private static final Logger LOG = Logger.getLogger(CopyPublisher.class);
    /** The answer to a group written where no confirm is asked for. */
    private static final CompletionStage<PublishAnswer> WRITTEN = CompletableFuture.completedStage(PublishAnswer.CONFIRMED);

    private final BrokerChannel channel;
    /** Whether {@link #channel} is the copies' own, not the delivery's. */
    private final boolean ownChannel;
    private final io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers;
    /** What the broker has not answered yet: told on the subscriber's event loop. */
    private final ConfirmedChannel confirms;
    private final ConfirmTimeouts timeouts;

    /**
     * @param channel where the copies go
     * @param ownChannel whether that channel is theirs alone (then every copy is confirmed), not the delivery's
     * @param blocked whether RabbitMQ blocks the channel's connection now
     * @param confirms whether copies on the delivery's channel are confirmed ({@code CONFIRMED})
     * @param refusedPause how long a returned fire-and-forget copy waits before it goes back ({@link ReturnedAfterAck})
     */
    CopyPublisher(BrokerChannel channel, boolean ownChannel, java.util.function.BooleanSupplier blocked,
            String workQueue, Context eventLoop, Clock clock, Duration timeout, Duration refusedPause, boolean confirms,
            io.quarkiverse.rabbitmq.subscriber.runtime.observe.Observers observers, MissingQueues missing)
            throws IOException {
        this.observers = observers;
        this.channel = channel;
        this.ownChannel = ownChannel;
        java.util.concurrent.Executor onLoop = task -> eventLoop.runOnContext(ignored -> task.run());
        ReturnedAfterAck returnedAfterAck = new ReturnedAfterAck(channel, workQueue, eventLoop, clock, refusedPause,
                missing);
        this.confirms = new ConfirmedChannel(onLoop,
                (replyText, exchange, routingKey, properties, body) -> returnedAfterAck.returned(replyText, routingKey,
                        properties, body));
        this.timeouts = new ConfirmTimeouts(this.confirms, clock, onLoop, timeout, blocked);
        // Confirm mode only where an original waits for its copy's confirm: it costs the broker a frame per copy.
        // Returns come either way.
        if (confirms || ownChannel) {
            channel.confirmSelect(this.confirms);
        } else {
            channel.listen(this.confirms);
        }
    }

    /**
     * Publishes a group in order, stopping at the first that cannot be written; answered once the broker answered for
     * each (confirmed ones) or once written (the others, on the delivery's channel only).
     *
     * @param confirmed whether the broker's confirms are waited for (always on a channel of their own)
     * @param channelName the channel in words, for an answer that it closed
     */
    CompletionStage<PublishAnswer> publish(List<Outgoing> group, boolean confirmed, String channelName) {
        confirmed |= ownChannel;
        PublishGroup answers = confirmed ? new PublishGroup(group.size()) : null;
        for (Outgoing publish : group) {
            Exception failure = write(publish,
                    confirmed ? new GroupedPublish(answers, publish, ownChannel, channelName, timeouts.timeoutMillis())
                            : null);
            if (failure != null) {
                LOG.debugf("Could not publish %s to %s: %s", publish.what(), publish.destination(), failure);
                PublishAnswer notWritten = notWritten(publish, failure, channelName);
                if (answers == null) {
                    return CompletableFuture.completedStage(notWritten);
                }
                answers.failed(notWritten.kind(), notWritten.why(), null);
                return answers.answer();
            }
        }
        return confirmed ? answers.answer() : WRITTEN;
    }

    /** Why a publish could not be written, and so what becomes of its delivery. */
    private PublishAnswer notWritten(Outgoing publish, Exception failure, String channelName) {
        String named = publish.what() + " to " + publish.destination();
        // A refusal by the client (BrokerChannel.publish checks the frame before amqp-client numbers anything) leaves
        // the channel open: the delivery must still be settled with a frame, never left to a later multiple ack.
        if (failure instanceof RuntimeException && channel.isOpen()) {
            return new PublishAnswer(PublishAnswer.Kind.REFUSED_BY_CLIENT,
                    "the client refused " + named + ": " + failure.getMessage(), null);
        }
        if (ownChannel) {
            // The copies' channel is gone (its connection is down or recovering); the delivery's is not.
            return new PublishAnswer(PublishAnswer.Kind.CUT,
                    channelName + " was closed when " + named + " was to be published: " + failure, null);
        }
        return new PublishAnswer(PublishAnswer.Kind.GONE, "the delivery's channel is gone: " + failure, null);
    }

    /**
     * Writes one publish, observed, and follows it until the broker answers when {@code tracked} is not null (a
     * confirmed one); returns the failure, or null when it was written.
     */
    private Exception write(Outgoing publish, GroupedPublish tracked) {
        AMQP.BasicProperties properties = publish.properties();
        // A copy carries its delivery's trace (see Settler): its publish span continues it.
        var observation = io.quarkiverse.rabbitmq.subscriber.runtime.observe.PublishObservation.NONE;
        if (observers.active()) {
            var observed = observers.publishingCopy(publish.exchange(), publish.routingKey(), properties);
            properties = observed.properties();
            observation = observed.observation();
        }
        try {
            if (tracked != null) {
                confirms.publish(channel, publish.exchange(), publish.routingKey(), publish.mandatory(), properties,
                        publish.body(), tracked, timeouts.now());
                timeouts.followed();
            } else {
                // The channel's monitor, as the engine takes it around a number and its frame: nothing else publishes
                // on this channel off its event loop, so it is uncontended.
                synchronized (channel) {
                    channel.publish(publish.exchange(), publish.routingKey(), publish.mandatory(), properties,
                            publish.body());
                }
            }
        } catch (IOException | RuntimeException e) {
            observation.done(e);
            return e;
        }
        observation.done(null);
        return null;
    }
}
